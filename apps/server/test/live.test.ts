// Changes take effect on every server sharing the database (docs/server.md "Live state and cache epochs"): each change
// is made through instance A's API, and a request of an old token on instance B — whose token, live state and read
// caches were warmed first — is refused or sees the narrowed data within 1 s: on PostgreSQL B hears of the write on
// its LISTEN connection (milliseconds); on PGlite both share one database, whose events are applied at the commit, so
// the very next request already does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { client, createTestApp, loginToken, secondInstance, type TestApp } from './harness.ts';
import { grantingTenant, menuIds as menuIdsOf } from './tenant-fixture.ts';
import { user } from '../src/db/schema/index.ts';

let a: TestApp;
let b: TestApp;
let platform: string;

type Json = { code: number; msg: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
const json = (r: { json(): unknown }) => r.json() as Json;
const PASSWORD = 'Live#2026xyz';
/** What B answers after a change made on A, asked again until it holds, for at most 1 s. */
const soon = <T>(ask: () => Promise<T>) => expect.poll(ask, { timeout: 1000, interval: 5 });
const status = (token: string, url: string) => async () => (await client(b, token).get(url)).statusCode;

beforeAll(async () => {
  a = await createTestApp();
  b = await secondInstance(a);
  platform = (await loginToken(a)).access;
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const menuIds = (codes: string[]) => menuIdsOf(a, codes);
/** A provisioned tenant, its administrator's client on A, and helpers to make roles and users through A's API. */
const tenant = (tenantId: string) => grantingTenant(a, platform, tenantId, PASSWORD);

describe('changes made on one server take effect within 1 s on another', () => {
  it('logout', async () => {
    const { access } = await loginToken(a);
    expect((await client(b, access).get('/api/blade-auth/oauth/user-info')).statusCode).toBe(200);
    expect((await client(a, access).get('/api/blade-auth/oauth/logout')).statusCode).toBe(200);
    await soon(status(access, '/api/blade-auth/oauth/user-info')).toBe(401);
    expect((await client(b, access).get('/api/blade-system/menu/routes')).statusCode).toBe(401);
  });

  it('a disabled user and a removed user', async () => {
    const t = await tenant('620001');
    const r = await t.role('viewer', { menus: ['system', 'post'] });
    const off = await t.member('off-1', [r]);
    const gone = await t.member('gone-1', [r]);
    for (const m of [off, gone]) {
      expect((await client(b, m.token).get('/api/blade-system/menu/routes')).statusCode).toBe(200);
      expect((await client(b, m.token).get('/api/blade-system/post/list')).statusCode).toBe(200);
    }
    // No API disables a user (status is read-only in the definition): the row is changed as an operator would.
    await a.services.db.update(user).set({ status: 0 }).where(eq(user.id, off.id));
    await soon(status(off.token, '/api/blade-system/post/list')).toBe(401);
    await t.ok(await t.api.post(`/api/blade-user/remove?ids=${gone.id}`));
    await soon(status(gone.token, '/api/blade-system/menu/routes')).toBe(401);
  });

  it("a user's roles changed: the role that granted a menu taken away", async () => {
    const t = await tenant('620002');
    const posts = await t.role('posts', { menus: ['system', 'post'] });
    const depts = await t.role('depts', { menus: ['system', 'dept'] });
    const m = await t.member('roles-1', [posts, depts]);
    const u = client(b, m.token);
    expect((await u.get('/api/blade-system/post/list')).statusCode).toBe(200);
    expect(JSON.stringify(json(await u.get('/api/blade-system/menu/routes')).data)).toContain('"post"');
    await t.ok(await t.api.post('/api/blade-user/grant', { userIds: [m.id], roleIds: [depts] }));
    await soon(status(m.token, '/api/blade-system/post/list')).toBe(403);
    const routes = JSON.stringify(json(await u.get('/api/blade-system/menu/routes')).data);
    expect(routes).not.toContain('"post"');
    expect(routes).toContain('"dept"');
    expect((await u.get('/api/blade-system/dept/list')).statusCode).toBe(200);
  });

  it("a role's menus changed", async () => {
    const t = await tenant('620003');
    const r = await t.role('staff', { menus: ['system', 'post', 'post_add', 'dept'] });
    const m = await t.member('menus-1', [r]);
    const u = client(b, m.token);
    expect((await u.get('/api/blade-system/post/list')).statusCode).toBe(200);
    expect(JSON.stringify(json(await u.get('/api/blade-system/menu/buttons')).data)).toContain('"post_add"');
    expect(JSON.stringify(json(await u.get('/api/blade-system/menu/routes')).data)).toContain('"post"');
    await t.ok(
      await t.api.post('/api/blade-system/role/grant', { roleIds: [r], menuIds: await menuIds(['system', 'dept']) }),
    );
    await soon(status(m.token, '/api/blade-system/post/list')).toBe(403);
    expect(JSON.stringify(json(await u.get('/api/blade-system/menu/routes')).data)).not.toContain('"post"');
    expect(JSON.stringify(json(await u.get('/api/blade-system/menu/buttons')).data)).not.toContain('"post_add"');
  });

  it("a role's API scope taken away, and an API scope edited", async () => {
    const t = await tenant('620004');
    const [postMenu] = await menuIds(['post']);
    const scope = await t.ok(
      await t.api.post('/api/blade-system/api-scope/submit', {
        menuId: postMenu,
        resourceCode: 'post',
        scopeName: 'post list',
        scopePath: '/api/blade-system/post/list',
        scopeMethod: 'GET',
      }),
    );
    const r = await t.role('api_only', { apiScopeIds: [scope.id] });
    const other = await t.role('api_edit', { apiScopeIds: [scope.id] });
    const m = await t.member('api-1', [r]);
    const n = await t.member('api-2', [other]);
    expect((await client(b, m.token).get('/api/blade-system/post/list')).statusCode).toBe(200);
    expect((await client(b, n.token).get('/api/blade-system/post/list')).statusCode).toBe(200);
    await t.ok(await t.api.post('/api/blade-system/role/grant', { roleIds: [r], menuIds: [], apiScopeIds: [] }));
    await soon(status(m.token, '/api/blade-system/post/list')).toBe(403);
    // The scope itself narrowed to another path.
    await t.ok(
      await t.api.post('/api/blade-system/api-scope/submit', { ...scope, scopePath: '/api/blade-system/post/detail' }),
    );
    await soon(status(n.token, '/api/blade-system/post/list')).toBe(403);
  });

  it("a role's data scope replaced, and a data scope edited", async () => {
    const t = await tenant('620005');
    const [userMenu] = await menuIds(['user']);
    const scope = async (scopeName: string, scopeType: number, extra: object = {}) =>
      t.ok(
        await t.api.post('/api/blade-system/data-scope/submit', {
          menuId: userMenu,
          resourceCode: 'user',
          scopeName,
          scopeType,
          ...extra,
        }),
      );
    const all = await scope('all', 1);
    const all2 = await scope('all, edited later', 1);
    const mine = await scope('own account', 5, { scopeColumn: 'account', scopeValue: 'data-1' });
    const r = await t.role('data', { menus: ['system', 'user'], dataScopeIds: [all.id] });
    const r2 = await t.role('data2', { menus: ['system', 'user'], dataScopeIds: [all2.id] });
    const m = await t.member('data-1', [r]);
    const n = await t.member('data-2', [r2]);
    const accounts = async (token: string) =>
      (json(await client(b, token).get('/api/blade-user/page?size=100')).data.records as { account: string }[])
        .map((x) => x.account)
        .sort();
    expect(await accounts(m.token)).toEqual(['admin', 'data-1', 'data-2']);
    expect(await accounts(n.token)).toEqual(['admin', 'data-1', 'data-2']);
    await t.ok(
      await t.api.post('/api/blade-system/role/grant', {
        roleIds: [r],
        menuIds: await menuIds(['system', 'user']),
        dataScopeIds: [mine.id],
      }),
    );
    await soon(() => accounts(m.token)).toEqual(['data-1']);
    await t.ok(
      await t.api.post('/api/blade-system/data-scope/submit', {
        ...all2,
        scopeType: 5,
        scopeColumn: 'account',
        scopeValue: 'data-2',
      }),
    );
    await soon(() => accounts(n.token)).toEqual(['data-2']);
  });

  it('a platform menu renamed (the global epoch)', async () => {
    const t = await tenant('620006');
    const r = await t.role('menus', { menus: ['system', 'post'] });
    const m = await t.member('global-1', [r]);
    const routes = async () => JSON.stringify(json(await client(b, m.token).get('/api/blade-system/menu/routes')).data);
    expect(await routes()).not.toContain('Renamed posts');
    const p = client(a, platform);
    const [postMenu] = await menuIds(['post']);
    const detail = json(await p.get(`/api/blade-system/menu/detail?id=${postMenu}`)).data;
    expect((await p.post('/api/blade-system/menu/submit', { ...detail, name: 'Renamed posts' })).statusCode).toBe(200);
    await soon(routes).toContain('Renamed posts');
  });

  it('a tenant removed, and a tenant expired', async () => {
    const removed = await tenant('620007');
    const expired = await tenant('620008');
    const p = client(a, platform);
    for (const t of [removed, expired])
      expect((await client(b, t.admin.token).get('/api/blade-system/menu/routes')).statusCode).toBe(200);
    expect((await p.post(`/api/blade-system/tenant/remove?ids=${removed.admin.tenantRowId}`)).statusCode).toBe(200);
    await soon(status(removed.admin.token, '/api/blade-system/menu/routes')).toBe(401);
    const set = await p.post(`/api/blade-system/tenant/setting?ids=${expired.admin.tenantRowId}`, {
      accountNumber: -1,
      expireTime: '2000-01-01 00:00:00',
    });
    expect(set.statusCode, set.body).toBe(200);
    await soon(status(expired.admin.token, '/api/blade-system/menu/routes')).toBe(401);
    const res = await client(b, expired.admin.token, 'en').get('/api/blade-system/menu/routes');
    expect(res.statusCode).toBe(401);
    expect(json(res).msg).toBe('The tenant has expired');
  });

  it("a tenant's dictionary edited", async () => {
    const t = await tenant('620010');
    const words = async (token: string) =>
      (
        json(await client(b, token).get('/api/blade-system/dict-biz/dictionary?code=shift')).data as {
          dictValue: string;
        }[]
      ).map((d) => d.dictValue);
    const parent = await t.ok(
      await t.api.post('/api/blade-system/dict-biz/submit', {
        code: 'shift',
        dictValue: 'Shift',
        sort: 1,
        isSealed: 0,
      }),
    );
    const child = await t.ok(
      await t.api.post('/api/blade-system/dict-biz/submit', {
        parentId: parent.id,
        code: 'shift',
        dictKey: 'day',
        dictValue: 'Day',
        sort: 1,
        isSealed: 0,
      }),
    );
    expect(await words(t.admin.token)).toEqual(['Day']);
    await t.ok(await t.api.post('/api/blade-system/dict-biz/submit', { ...child, dictValue: 'Early' }));
    await soon(() => words(t.admin.token)).toEqual(['Early']);
  });

  it('clear-cache on one server clears the tenant on every server', async () => {
    const t = await tenant('620009');
    // A direct change no API made (no epoch moved): only clear-cache tells the servers.
    const r = await t.role('direct', { menus: ['system', 'post'] });
    const m = await t.member('clear-1', [r]);
    expect((await client(b, m.token).get('/api/blade-system/post/list')).statusCode).toBe(200);
    const { roleMenu } = await import('../src/db/schema/index.ts');
    await a.services.db.delete(roleMenu).where(eq(roleMenu.roleId, r));
    expect((await client(b, m.token).get('/api/blade-system/post/list')).statusCode).toBe(200);
    expect((await t.api.get('/api/blade-auth/oauth/clear-cache')).statusCode).toBe(200);
    await soon(status(m.token, '/api/blade-system/post/list')).toBe(403);
  });
});
