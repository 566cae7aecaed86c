import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { datasource as def } from '@atrium/contract/resources/system/datasource';
import { menu, role, roleMenu } from '../src/db/schema/index.ts';
import { rowsOf } from '../src/db/rows.ts';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';

/**
 * 数据源管理 (docs/tenants.md "Data sources"): records of the databases a tenant may be moved to — the URL's host
 * under the address rules, the password sealed and answered as the mask, platform administrator only; `test`
 * connects; migration 0049 adds the screen to a database seeded before it.
 */
let t: TestApp;
let open: TestApp;
let platform: string;
let tenantAdmin: string;
const PASSWORD = 'Ds#Secret#2026';

beforeAll(async () => {
  // The first app allows no private network; the second allows the loopback network (where the tests' PostgreSQL is).
  t = await createTestApp();
  open = await createTestApp({ datasourcePrivateNetworks: ['127.0.0.0/8'] });
  platform = (await loginToken(t)).access;
  tenantAdmin = (await provisionedTenant(t, platform, '710051')).token;
});
afterAll(async () => {
  await open?.close();
  await t?.close();
});

const body = (over: object = {}) => ({
  name: 'local',
  url: 'postgres://127.0.0.1:5432/postgres',
  username: 'postgres',
  password: PASSWORD,
  ...over,
});

describe('data source records', () => {
  it('refuses a private address unless ATRIUM_DATASOURCE_PRIVATE_NETWORKS allows it', async () => {
    const res = await client(t, platform, 'en').post(`${def.base}/submit`, body());
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(
      'The data source address 127.0.0.1 is private or reserved and not allowed by ATRIUM_DATASOURCE_PRIVATE_NETWORKS',
    );
    const link = await client(t, platform, 'en').post(
      `${def.base}/submit`,
      body({ url: 'postgres://169.254.169.254:5432/x' }),
    );
    expect(link.statusCode).toBe(400);
  });

  it('refuses a URL that is not postgres:// host/database, or carries a password', async () => {
    for (const url of ['http://db.example.com/x', 'postgres://u:p@db.example.com/x', 'postgres://db.example.com']) {
      const res = await client(t, platform, 'en').post(`${def.base}/submit`, body({ url }));
      expect(res.statusCode).toBe(400);
      expect(res.json().data[0]).toMatchObject({ field: 'url' });
    }
  });

  it('stores the password sealed and answers the mask only', async () => {
    const api = client(open, (await loginToken(open)).access);
    const saved = await api.post(`${def.base}/submit`, body());
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(PASSWORD);
    const id = saved.json().data.id as string;
    const detail = await api.get(`${def.base}/detail?id=${id}`);
    expect(detail.json().data.password).toBe('******');
    const list = await api.get(`${def.base}/list?current=1&size=10`);
    expect(list.body).not.toContain(PASSWORD);
    const [row] = await rowsOf<{ sealed: string }>(
      open.services.db,
      sql`select password_sealed as sealed from datasource where id = ${id}`,
    );
    expect(row.sealed.startsWith('v1.')).toBe(true);
    expect(row.sealed).not.toContain(PASSWORD);
  });

  it.skipIf(!process.env.DATABASE_URL)('tests a connection, and names the failure', async () => {
    const api = client(open, (await loginToken(open)).access, 'en');
    const good = await api.post(`${def.base}/submit`, body({ name: 'good', password: '' }));
    const ok = await api.post(`${def.base}/test`, { id: good.json().data.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatch(/^PostgreSQL \d+/);
    const bad = await api.post(
      `${def.base}/submit`,
      body({ name: 'bad', url: 'postgres://127.0.0.1:5432/atrium_tm_none' }),
    );
    const failed = await api.post(`${def.base}/test`, { id: bad.json().data.id });
    expect(failed.statusCode).toBe(400);
    expect(failed.json().msg).toMatch(
      /^Cannot connect to the data source: 3D000: database "atrium_tm_none" does not exist/,
    );
    expect(failed.body).not.toContain(PASSWORD);
  });

  it('is the platform administrator’s alone', async () => {
    expect((await client(t, tenantAdmin).get(`${def.base}/list?current=1&size=10`)).statusCode).toBe(403);
    expect((await client(t, tenantAdmin).post(`${def.base}/submit`, body())).statusCode).toBe(403);
  });
});

describe('migration 0049 on a database seeded before data sources', () => {
  it('adds 数据源管理 and its buttons to the platform administrator only, once', async () => {
    const codes = [
      'datasource',
      'datasource_add',
      'datasource_edit',
      'datasource_delete',
      'datasource_view',
      'datasource_test',
    ];
    const held = async () =>
      (
        await t.services.db
          .select({ tenantId: role.tenantId, code: menu.code })
          .from(roleMenu)
          .innerJoin(role, eq(role.id, roleMenu.roleId))
          .innerJoin(menu, eq(menu.id, roleMenu.menuId))
          .where(and(eq(role.roleAlias, 'administrator'), inArray(menu.code, codes)))
      )
        .map((r) => `${r.tenantId}:${r.code}`)
        .sort();
    const seeded = await held();
    expect(seeded).toEqual(codes.map((c) => `000000:${c}`).sort());
    // As before the migration: the screen and its grants gone.
    await t.services.db.execute(
      sql`delete from role_menu where menu_id in (select id from menu where code like 'datasource%')`,
    );
    await t.services.db.execute(sql`delete from menu where code like 'datasource%'`);
    const file = new URL('../src/db/migrations/0049_datasource.sql', import.meta.url);
    const handWritten = fs.readFileSync(file, 'utf8').split('-- hand-written:')[1];
    for (let i = 0; i < 2; i++)
      for (const statement of handWritten.split('--> statement-breakpoint'))
        await t.services.db.execute(sql.raw(statement));
    expect(await held()).toEqual(seeded);
  });
});
