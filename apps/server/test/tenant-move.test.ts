import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { tenantTableList } from '../src/db/schema/tables.ts';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';
import { sampleBody } from './support/samples.ts';
import {
  MOVE_NETWORKS,
  adminRows as admin,
  bindRequest,
  mainDbName,
  tenantDatabase,
  type TenantDatabase,
} from './support/moved.ts';

/**
 * A tenant on its own database (docs/tenants.md "Moving a tenant"), on PostgreSQL: tenant A is bound to a second
 * database — its rows leave the main one, its user logs in, lists and writes there, B is unaffected and neither
 * reaches the other's records — then unbound, and everything is back on the main database. On PGlite the binding is
 * refused with its message. The throwaway database and its data source come from test/support/moved.ts.
 */
const PG = process.env.DATABASE_URL;
const A = '710061';
const B = '710062';
let t: TestApp;
let platform: string;
let target: TenantDatabase | undefined;
const users: Record<string, { password: string; token: string; clientId: string }> = {};

/** How many rows of the tenant each database holds over every tenant table. */
async function rowsIn(tenantId: string, database?: string): Promise<number> {
  const parts = tenantTableList().map((x) => `(select count(*) from "${x.name}" where tenant_id = '${tenantId}')`);
  const [r] = await admin(`select ${parts.join(' + ')} as n`, database ?? mainDbName(t));
  return Number(r.n);
}
const bind = (datasourceId: string) => bindRequest(t, platform, A, datasourceId);
const listOf = async (token: string) => {
  const res = await client(t, token).get(`${clientinfo.base}/${clientinfo.listPath}?current=1&size=50`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.records as { id: string }[]).map((r) => r.id);
};

beforeAll(async () => {
  t = await createTestApp({ datasourcePrivateNetworks: MOVE_NETWORKS });
  platform = (await loginToken(t)).access;
  for (const id of [A, B]) {
    const made = await provisionedTenant(t, platform, id);
    const binding = t.services.registry.bindings.get(clientinfo.code)!;
    const res = await client(t, made.token).post(`${clientinfo.base}/submit`, await sampleBody(t, binding, made.token));
    expect(res.statusCode, res.body).toBe(200);
    users[id] = { password: made.password, token: made.token, clientId: res.json().data.id };
  }
});
afterAll(async () => {
  await t?.close();
  await target?.drop();
});

describe.skipIf(PG)('on the embedded database', () => {
  it('refuses a binding with its reason', async () => {
    const res = await bind('1');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(
      'The embedded database (PGlite) has no second database to move a tenant to: deploy on PostgreSQL',
    );
  });
});

describe.skipIf(!PG)('on PostgreSQL', () => {
  let dsId: string;
  let tenantDbName: string;

  it('moves tenant A to a second database and routes it there', async () => {
    target = await tenantDatabase(t, platform);
    ({ datasourceId: dsId, name: tenantDbName } = target);
    const before = await rowsIn(A);
    const bOnMain = await rowsIn(B);
    const res = await bind(dsId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.rows).toBe(before);
    // The main database holds none of A's rows; the tenant database all of them; B did not move.
    expect(await rowsIn(A)).toBe(0);
    expect(await rowsIn(A, tenantDbName)).toBe(before);
    expect(await rowsIn(B)).toBe(bOnMain);
    expect(await rowsIn(B, tenantDbName)).toBe(0);
    const [bound] = await admin(
      `select datasource_id::text as ds, move_state from tenant where tenant_id = '${A}'`,
      mainDbName(t),
    );
    expect(bound).toEqual({ ds: dsId, move_state: null });
  });

  it("A's user logs in, lists and writes on A's database; B is unaffected", async () => {
    const token = await userToken(t, A, 'admin', users[A].password);
    expect(await listOf(token)).toEqual([users[A].clientId]);
    expect(await listOf(users[B].token)).toEqual([users[B].clientId]);
    // A write of A's (its client renamed) lands in A's database.
    const detail = await client(t, token).get(`${clientinfo.base}/detail?id=${users[A].clientId}`);
    const renamed = await client(t, token).post(`${clientinfo.base}/submit`, {
      ...detail.json().data,
      clientName: 'moved-tenant-client',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [there] = await admin(
      `select count(*)::int as n from client_info where client_name = 'moved-tenant-client'`,
      tenantDbName,
    );
    expect(there.n).toBe(1);
    const [onMain] = await admin(
      `select count(*)::int as n from client_info where client_name = 'moved-tenant-client'`,
      mainDbName(t),
    );
    expect(onMain.n).toBe(0);
  });

  it('isolation holds across the two databases', async () => {
    const aToken = await userToken(t, A, 'admin', users[A].password);
    const bReadsA = await client(t, users[B].token).get(`${clientinfo.base}/detail?id=${users[A].clientId}`);
    expect(bReadsA.statusCode).toBe(404);
    const aReadsB = await client(t, aToken).get(`${clientinfo.base}/detail?id=${users[B].clientId}`);
    expect(aReadsB.statusCode).toBe(404);
    const aRemovesB = await client(t, aToken).post(`${clientinfo.base}/remove?ids=${users[B].clientId}`);
    expect(aRemovesB.statusCode).toBe(404);
    expect(await listOf(users[B].token)).toEqual([users[B].clientId]);
    // Row-level security in the tenant database too: B's context there sees none of A's rows.
    const u = new URL(PG!);
    u.pathname = `/${tenantDbName}`;
    const c = new pg.Client({ connectionString: u.toString() });
    await c.connect();
    try {
      await c.query('begin');
      await c.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'atrium_app', true)`, [B]);
      expect((await c.query('select count(*)::int as n from client_info')).rows[0].n).toBe(0);
      await c.query('rollback');
    } finally {
      await c.end();
    }
  });

  it('a tenant administrator may not move a tenant', async () => {
    const res = await bindRequest(t, users[B].token, B, dsId);
    expect(res.statusCode).toBe(403);
  });

  it('unbinding moves A back to the main database', async () => {
    const there = await rowsIn(A, tenantDbName);
    const res = await bind('');
    expect(res.statusCode, res.body).toBe(200);
    expect(await rowsIn(A)).toBe(there);
    expect(await rowsIn(A, tenantDbName)).toBe(0);
    const token = await userToken(t, A, 'admin', users[A].password);
    expect(await listOf(token)).toEqual([users[A].clientId]);
    const detail = await client(t, token).get(`${clientinfo.base}/detail?id=${users[A].clientId}`);
    expect(detail.json().data.clientName).toBe('moved-tenant-client');
  });
});
