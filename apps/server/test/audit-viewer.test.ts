// Logs (docs/server.md "Log viewers"): the audit viewer over the rows every write leaves — filters by entity, user, record
// and time, the changed fields of an update, another tenant's rows never listed and a 404 by id, a 403 without the
// menu code, a clear 400 for a bad filter or a page past the paged rows — and the uploaded error log's viewer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { changesOf } from '../src/modules/log/viewer.ts';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';

const T = '750101';
const T2 = '750102';
const audit = '/api/blade-log/audit';
const errors = '/api/blade-log/error';
let t: TestApp;
let admin: string;
let other: string;
let deptId: string;

type Row = { id: string; entity: string; action: string; entityId: string | null; account: string | null };
const list = async (token: string, query = '') => {
  const res = await client(t, token).get(`${audit}/list?size=100${query}`);
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return res.json().data as { records: Row[]; total: number; capped: boolean };
};

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, T2)).token;
  const a = client(t, admin);
  const root = (await a.get('/api/blade-system/dept/tree')).json().data[0];
  const made = await a.post('/api/blade-system/dept/submit', { deptName: '审计部', parentId: root.id, sort: 1 });
  expect(made.statusCode).toBe(200);
  deptId = String(made.json().data.id);
  const detail = (await a.get(`/api/blade-system/dept/detail?id=${deptId}`)).json().data;
  const edited = await a.post('/api/blade-system/dept/submit', { ...detail, deptName: '审计二部' });
  expect([edited.statusCode, edited.body.slice(0, 200)]).toEqual([200, edited.body.slice(0, 200)]);
  // The other tenant writes too: its rows must never show.
  const b = client(t, other);
  const bRoot = (await b.get('/api/blade-system/dept/tree')).json().data[0];
  expect((await b.post('/api/blade-system/dept/submit', { deptName: '乙部门', parentId: bRoot.id })).statusCode).toBe(
    200,
  );
});
afterAll(async () => t?.close());

describe('audit viewer', () => {
  it('lists the tenant’s writes newest first, by entity, record, user and time', async () => {
    const page = await list(admin, `&entity=dept&entityId=${deptId}`);
    expect(page.records.map((r) => r.action)).toEqual(['update', 'insert']);
    expect(page.total).toBe(2);
    expect(page.capped).toBe(false);
    expect(page.records[0].account).toBe('admin');
    expect((await list(admin, '&account=admin&entity=dept')).total).toBeGreaterThanOrEqual(2);
    expect((await list(admin, '&account=nobody')).total).toBe(0);
    expect((await list(admin, '&createTime_datelt=2000-01-01')).total).toBe(0);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect((await list(admin, `&entity=dept&createTime_dategt=${since}`)).total).toBeGreaterThanOrEqual(2);
  });

  it('shows an update as its changed fields, before → after', async () => {
    const [row] = (await list(admin, `&entity=dept&entityId=${deptId}&action=update`)).records;
    const res = await client(t, admin).get(`${audit}/detail?id=${row.id}`);
    expect(res.statusCode).toBe(200);
    const d = res.json().data as { changes: { field: string; before: unknown; after: unknown }[] };
    expect(d.changes).toContainEqual({ field: 'deptName', before: '审计部', after: '审计二部' });
    expect(d.changes.map((c) => c.field)).not.toContain('id');
  });

  it('never lists another tenant’s rows, and answers one by id with a 404', async () => {
    const mine = await list(other, '&entity=dept&size=1000');
    expect(mine.records.some((r) => r.entityId === deptId)).toBe(false);
    const [row] = (await list(admin, `&entityId=${deptId}`)).records;
    const res = await client(t, other).get(`${audit}/detail?id=${row.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe('审计记录不存在');
  });

  it('is a 403 for a user without the menu code', async () => {
    const a = client(t, admin);
    const roles = (await a.get('/api/blade-system/role/list?roleAlias=region_admin')).json().data;
    const roleId = (Array.isArray(roles) ? roles : roles.records)[0].id;
    const made = await a.post('/api/blade-user/submit', {
      account: 'auditless',
      realName: 'auditless',
      password: 'Staff#2026x',
      roleIds: [roleId],
      regionCode: '110101',
    });
    expect(made.statusCode).toBe(200);
    const token = await userToken(t, T, 'auditless', 'Staff#2026x');
    for (const url of [`${audit}/list`, `${audit}/detail?id=1`, `${errors}/list`, `${errors}/detail?id=1`])
      expect([url, (await client(t, token).get(url)).statusCode]).toEqual([url, 403]);
  });

  it('answers a bad filter or a page past the paged rows with a 400 in both languages', async () => {
    const a = client(t, admin);
    for (const q of ['userId=abc', 'createTime_dategt=yesterday', 'colour=red', 'entityId=1x'])
      expect([q, (await a.get(`${audit}/list?${q}`)).statusCode]).toEqual([q, 400]);
    const deep = await a.get(`${audit}/list?current=1001&size=10`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().msg).toBe('列表只分页前 10000 条，请缩小筛选条件');
    const en = await client(t, admin, 'en').get(`${audit}/list?current=1001&size=10`);
    expect(en.json().msg).toBe('Only the first 10,000 rows are paged: narrow the filters');
    expect((await a.get(`${audit}/detail?id=abc`)).statusCode).toBe(400);
  });

  it('counts at most 10,000 rows of a filtered list and says so', async () => {
    await t.services.db.execute(sql`
      insert into audit_log (id, tenant_id, user_id, action, entity, entity_id, create_time)
      select 9000000000000 + g, ${T}, null, 'update', 'bulk', g, now() - g * interval '1 second'
      from generate_series(1, 10050) g`);
    const page = await list(admin, '&entity=bulk&size=10');
    expect([page.total, page.capped, page.records.length]).toEqual([10000, true, 10]);
    expect((await list(admin, '&entity=bulk&size=10&current=1000')).records).toHaveLength(10);
  });

  it('lists changes of records, inserts and deletes as fields', () => {
    expect(changesOf(null, { a: 1, b: null })).toEqual([{ field: 'a', before: null, after: 1 }]);
    expect(changesOf({ a: 1 }, null)).toEqual([{ field: 'a', before: 1, after: null }]);
    expect(changesOf({ a: [1], b: 2 }, { a: [1], b: 3 })).toEqual([{ field: 'b', before: 2, after: 3 }]);
    expect(changesOf(null, null)).toEqual([]);
  });
});

describe('error-log viewer', () => {
  it('lists the entries the tenant’s consoles uploaded, with their stack, and no other tenant’s', async () => {
    const sent = await client(t, admin).post('/api/blade-log/error-logs', [
      { type: 'error', url: '/system/dept', message: 'boom in 甲', stack: 'Error: boom\n  at x', time: '2026-11-28' },
    ]);
    expect(sent.statusCode).toBe(200);
    const res = await client(t, admin).get(`${errors}/list?type=error&url=dept&account=admin`);
    expect(res.statusCode).toBe(200);
    const [row] = res.json().data.records as { id: string; message: string; account: string }[];
    expect([row.message, row.account]).toEqual(['boom in 甲', 'admin']);
    const detail = (await client(t, admin).get(`${errors}/detail?id=${row.id}`)).json().data;
    expect(detail.stack).toContain('at x');
    expect((await client(t, other).get(`${errors}/list`)).json().data.records).toEqual([]);
    expect((await client(t, other).get(`${errors}/detail?id=${row.id}`)).statusCode).toBe(404);
  });
});
