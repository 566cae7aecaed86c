// Issue 9 §2: two instances starting at once on an empty PostgreSQL database. Migrate + seed run under an advisory
// lock (docs/server.md "Start-up"), so the second waits, finds the migrations applied and the seed present.
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import { migrateAndSeed } from '../src/seed/seed.ts';
import { menu, tenant, user } from '../src/db/schema/index.ts';

const url = process.env.DATABASE_URL;
const name = `atrium_first_${randomBytes(6).toString('hex')}`;

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

describe.skipIf(!url)('first start on an empty PostgreSQL database', () => {
  let dbUrl: string;
  const opened: Database[] = [];
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
    const u = new URL(url!);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
  });
  afterAll(async () => {
    for (const d of opened) await d.close().catch(() => {});
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('two instances migrate and seed at once: both succeed, one seed', async () => {
    const starts = Array.from({ length: 3 }, async () => {
      const database = await openDatabase({ databaseUrl: dbUrl, poolSize: 3 });
      opened.push(database);
      return migrateAndSeed(database, { adminPassword: 'First#2026start' });
    });
    const seeded = await Promise.all(starts);
    expect(seeded.filter(Boolean)).toHaveLength(1);
    const db = opened[0].db;
    expect((await db.select({ n: count() }).from(tenant))[0].n).toBe(1);
    expect((await db.select({ n: count() }).from(user).where(eq(user.account, 'admin')))[0].n).toBe(1);
    const [{ n: menus }] = await db.select({ n: count() }).from(menu);
    expect(menus).toBeGreaterThan(10);
    // A later start finds everything in place.
    expect(await migrateAndSeed(opened[1], { adminPassword: 'First#2026start' })).toBe(false);
    expect((await db.select({ n: count() }).from(menu))[0].n).toBe(menus);
  });
});
