// Issue 25 §5 (a crowd on the embedded database): a request's statements take as few hops to the worker as they can,
// and a public call does not wait behind its address's other calls (docs/server.md "Embedded database").
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentLane } from '../src/db/fair-gate.ts';
import type { PgliteThread } from '../src/db/pglite-thread.ts';
import { readTenant, withTenant } from '../src/platform/tenant-db.ts';
import { client, loginToken, type TestApp, createTestApp } from './harness.ts';
import { rowsOf } from '../src/db/rows.ts';

const embedded = !process.env.DATABASE_URL;

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.get('/lane-a', async () => currentLane());
    app.get('/lane-b', async () => currentLane());
  });
  admin = (await loginToken(t)).access;
}, 240_000);
afterAll(async () => t?.close());

/** Messages posted to the embedded database's worker while `fn` runs (the second of two calls: caches warm). */
async function hops(fn: () => Promise<{ statusCode: number }>): Promise<number> {
  // `Db` leaves out the `$client` drizzle keeps: here the database's PgliteThread (db/client.ts).
  const thread = (t.database.db as unknown as { $client: PgliteThread }).$client;
  expect((await fn()).statusCode).toBe(200);
  const before = thread.messages;
  expect((await fn()).statusCode).toBe(200);
  return thread.messages - before;
}

describe.runIf(embedded)('hops to the worker per request', () => {
  it("a tenant read's begin, tenant context and query are one message, its end one more (was 3)", async () => {
    const page = () => client(t, admin).get('/api/blade-business/clientInfo/page?current=1&size=10');
    expect(await hops(page)).toBeLessThanOrEqual(2);
  });

  it('the public tenant/info is one statement, one turn at the database (was 2)', async () => {
    const info = () => t.app.inject({ method: 'GET', url: '/api/blade-system/tenant/info?domain=probe.invalid' });
    expect(await hops(info)).toBe(1);
  });
});

describe('tenant transactions', () => {
  it('a read-only tenant read refuses a write, as PostgreSQL does (SQLSTATE 25006)', async () => {
    const write = readTenant(t.database.db, '000000', (tx) =>
      tx.execute(sql`update dept set dept_name = dept_name where false`),
    );
    const err = (await write.catch((e: unknown) => e)) as { code?: string; cause?: { code?: string } };
    expect(err.code ?? err.cause?.code).toBe('25006');
  });

  it('the tenant context that goes with the first statement is in force, and a write in withTenant commits', async () => {
    const seen = await withTenant(t.database.db, '000000', async (tx) => {
      const rows = await rowsOf<{ tenant: string; who: string }>(
        tx,
        sql`select current_setting('app.tenant_id') as tenant, current_user as who`,
      );
      await tx.execute(sql`update dept set dept_name = dept_name where false`);
      return rows[0];
    });
    expect(seen).toEqual({ tenant: '000000', who: 'atrium_app' });
    const read = await readTenant(t.database.db, '000000', async (tx) => {
      const rows = await rowsOf<{ tenant: string }>(tx, sql`select current_setting('app.tenant_id') as tenant`);
      return rows[0].tenant;
    });
    expect(read).toBe('000000');
  });
});

describe("a public call's lane", () => {
  it("is its address and its route: one address's logins do not queue its other public calls", async () => {
    const a = (await t.app.inject({ method: 'GET', url: '/lane-a', remoteAddress: '10.0.0.7' })).json();
    const a2 = (await t.app.inject({ method: 'GET', url: '/lane-a?x=1', remoteAddress: '10.0.0.7' })).json();
    const b = (await t.app.inject({ method: 'GET', url: '/lane-b', remoteAddress: '10.0.0.7' })).json();
    const other = (await t.app.inject({ method: 'GET', url: '/lane-a', remoteAddress: '10.0.0.8' })).json();
    expect(a.group).toBe('ip');
    expect(a2).toEqual(a);
    expect(b.member).not.toBe(a.member);
    expect(other.member).not.toBe(a.member);
  });
});
