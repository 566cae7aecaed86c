import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/seed/seed.ts';

/** Where the migrated, seeded database of this run lives; the harness copies it for each test file. */
export type DbImage = { kind: 'pglite'; file: string } | { kind: 'postgres'; template: string };

declare module 'vitest' {
  export interface ProvidedContext {
    dbImage: DbImage;
  }
}

/** The seeded platform administrator's password (tenant 000000, user admin). */
export const ADMIN_PASSWORD = 'admin';

/**
 * Builds the image once per run from the current migrations and seed (never checked in: migrations change
 * often). Creating a PGlite cluster (initdb) costs seconds; loading a dumped data directory costs a fraction.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `atrium_tpl_${randomBytes(6).toString('hex')}`;
    await adminQuery(url, `CREATE DATABASE ${template}`);
    const u = new URL(url);
    u.pathname = `/${template}`;
    const drop = () => adminQuery(url, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 1 });
    try {
      await database.migrate();
      await seedIfEmpty(database.db, { adminPassword: ADMIN_PASSWORD });
    } catch (err) {
      await database.close();
      await drop();
      throw err;
    }
    // CREATE DATABASE ... TEMPLATE refuses a template that still has sessions.
    await database.close();
    project.provide('dbImage', { kind: 'postgres', template });
    return drop;
  }

  removeStaleImages();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-image-'));
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.migrate();
    await seedIfEmpty(database.db, { adminPassword: ADMIN_PASSWORD });
    // `Db` leaves out the `$client` drizzle keeps: here the PgliteThread, which answers PGlite's dumpDataDir.
    const client = (database.db as unknown as { $client: PGlite }).$client;
    // Uncompressed: larger on disk, but each test file loads it faster than a gzip one.
    const tar = await client.dumpDataDir('none');
    const file = path.join(dir, 'pgdata.tar');
    fs.writeFileSync(file, Buffer.from(await tar.arrayBuffer()));
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    await database.close();
  }
  project.provide('dbImage', { kind: 'pglite', file: path.join(dir, 'pgdata.tar') });
  return async () => fs.rmSync(dir, { recursive: true, force: true });
}

/** A run killed before its teardown leaves its image (tens of MB) behind; no run lasts a day. */
function removeStaleImages(): void {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith('atrium-image-')) continue;
    const dir = path.join(tmp, name);
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs > 86_400_000) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another run removed it first.
    }
  }
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}
