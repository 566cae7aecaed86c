import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { tenantTableList } from '../src/db/schema/tables.ts';
import {
  client,
  createTestApp,
  loginToken,
  provisionedTenant,
  secondInstance,
  userToken,
  type TestApp,
} from './harness.ts';
import { sampleBody } from './support/samples.ts';
import { syncReference } from '../src/modules/tenant/reference.ts';
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
/** A second server on the same database (PostgreSQL): the reference data is copied once for both. */
let t2: TestApp | undefined;
let platform: string;
let target: TenantDatabase | undefined;
/** The name of A's database once made (the first PostgreSQL test). */
let tenantDbName = '';
const users: Record<string, { password: string; token: string; clientId: string; rowId: string }> = {};

/** How many rows of the tenant each database holds over every tenant table. */
async function rowsIn(tenantId: string, database?: string): Promise<number> {
  const parts = tenantTableList().map((x) => `(select count(*) from "${x.name}" where tenant_id = '${tenantId}')`);
  const [r] = await admin(`select ${parts.join(' + ')} as n`, database ?? mainDbName(t));
  return Number(r.n);
}
/** The reference syncs of both servers by result (docs/deploy.md "Metrics"). */
async function syncCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = { same: 0, copied: 0, busy: 0, failed: 0 };
  for (const app of [t, t2!]) {
    const m = await app.services.metrics.getSingleMetric('atrium_tenant_reference_syncs_total')!.get();
    for (const v of m.values) out[String(v.labels.result)] += v.value;
  }
  return out;
}
/** Polls `probe` (a query of A's database) until it answers `want`; the milliseconds it took. */
async function reaches(probe: string, want: unknown, ms = 10_000): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const [r] = await admin(probe, tenantDbName);
    if (r?.v === want) return Date.now() - t0;
    if (Date.now() - t0 > ms) throw new Error(`${probe} answered ${JSON.stringify(r)}, not ${String(want)}`);
    await new Promise((res) => setTimeout(res, 25));
  }
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
    users[id] = { password: made.password, token: made.token, clientId: res.json().data.id, rowId: made.tenantRowId };
  }
  if (PG) t2 = await secondInstance(t);
});
afterAll(async () => {
  await t2?.close();
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

  it("reference data changed on the main database reaches A's database within seconds, once", async () => {
    const p = client(t, platform, 'en');
    const a = client(t, await userToken(t, A, 'admin', users[A].password), 'en');
    const camera = {
      deviceCode: '11010100001310000093',
      name: 'moved cam',
      deviceType: '131',
      regionCode: '110101996',
    };
    // A region A's database does not hold: A's camera in it is refused.
    const before = await a.post('/api/blade-device-access/cameraDevice/save', camera);
    expect([before.statusCode, before.json().msg]).toEqual([400, expect.stringContaining('110101996')]);
    // A new region on the main database: copied there once for the two servers, and A's camera in it is saved.
    const counts = await syncCounts();
    const made = await p.post('/api/blade-system/region/submit', {
      parentCode: '110101',
      code: '110101996',
      name: '迁移测试街道',
    });
    expect(made.statusCode, made.body).toBe(200);
    const regionMs = await reaches(
      `select name as v from region where code = '110101996' and is_deleted = 0`,
      '迁移测试街道',
    );
    const saved = await a.post('/api/blade-device-access/cameraDevice/save', camera);
    expect(saved.statusCode, saved.body).toBe(200);
    // The other server found it in step (or busy, then in step a second later): one copy in all.
    await new Promise((r) => setTimeout(r, 1500));
    const after = await syncCounts();
    expect(after.copied - counts.copied).toBe(1);
    expect(after.same - counts.same).toBeGreaterThanOrEqual(1);
    expect(after.failed).toBe(0);

    // A changed system dictionary entry: A's copy follows, and A's user reads the new label.
    const entries = (await a.get('/api/blade-system/dict/dictionary?code=post_category')).json().data as {
      id: string;
    }[];
    const detail = (await p.get(`/api/blade-system/dict/detail?id=${entries[0].id}`)).json().data;
    const changed = await p.post('/api/blade-system/dict/submit', {
      ...detail,
      dictValue: '迁移后的岗位',
      dictValueEn: 'Moved post',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const dictMs = await reaches(`select dict_value as v from dict where id = ${entries[0].id}`, '迁移后的岗位');
    const read = (await a.get('/api/blade-system/dict/dictionary?code=post_category')).json().data as {
      id: string;
      dictValue: string;
    }[];
    expect(read.find((e) => e.id === entries[0].id)?.dictValue).toBe('Moved post');

    // The tenant's quota: one account (its administrator), then a new user of A is refused on A's database.
    const quota = await p.post(`/api/blade-system/tenant/setting?ids=${users[A].rowId}`, { accountNumber: 1 });
    expect(quota.statusCode, quota.body).toBe(200);
    const quotaMs = await reaches(`select account_number as v from tenant where tenant_id = '${A}'`, 1);
    const refused = await a.post('/api/blade-user/submit', {
      account: 'quota_probe',
      realName: 'probe',
      password: 'Probe#2026x',
    });
    expect([refused.statusCode, refused.json().msg]).toEqual([400, "The tenant's account quota (1) is used up"]);
    expect(
      (await p.post(`/api/blade-system/tenant/setting?ids=${users[A].rowId}`, { accountNumber: -1 })).statusCode,
    ).toBe(200);
    await reaches(`select account_number as v from tenant where tenant_id = '${A}'`, -1);

    // The cost of a sync, on A's database as it is: every table (its record of what it holds removed), then the
    // tenant rows alone; a second run finds nothing to copy.
    const u = new URL(PG!);
    u.pathname = `/${tenantDbName}`;
    await admin(`delete from cache_epoch where scope like 'synced:%'`, tenantDbName);
    const all = await syncReference(t.databaseUrl!, u.toString(), dsId, { wait: true });
    expect(all.tables).toEqual(['dict', 'param', 'region', 'oauth_client', 'menu', 'tenant']);
    await admin(`delete from cache_epoch where scope = 'synced:tenant'`, tenantDbName);
    const one = await syncReference(t.databaseUrl!, u.toString(), dsId, { wait: true });
    expect(one.tables).toEqual(['tenant']);
    const none = await syncReference(t.databaseUrl!, u.toString(), dsId, { wait: true });
    expect([none.tables, none.rows]).toEqual([[], 0]);
    console.log(
      `reference sync: region seen on A's database after ${regionMs} ms, dictionary ${dictMs} ms, quota ${quotaMs} ms; ` +
        `a whole sync ${all.rows} rows in ${all.ms} ms, the tenant rows ${one.rows} rows in ${one.ms} ms, nothing to copy ${none.ms} ms`,
    );
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
