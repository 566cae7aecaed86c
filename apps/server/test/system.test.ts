import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  client,
  createTestApp,
  login,
  loginToken,
  newCaptcha,
  provisionedTenant,
  userToken,
  type TestApp,
} from './harness.ts';
import { menu, roleMenu, user } from '../src/db/schema/index.ts';
import { md5Hex } from '../src/platform/password.ts';
import { rowsOf } from '../src/db/rows.ts';

let t: TestApp;
let platform: string;
let tenantA: { token: string; tenantRowId: string; password: string };

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
  tenantA = await provisionedTenant(t, platform, '610001');
});
afterAll(async () => t?.close());

type Json = { code: number; msg: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
const json = (r: { json(): unknown }) => r.json() as Json;
const menuIds = async (codes: string[]) =>
  (
    await t.services.db
      .select({ id: menu.id })
      .from(menu)
      .where(and(inArray(menu.code, codes), eq(menu.tenantId, '000000')))
  ).map((m) => m.id);

describe('tenants (platform administrator only)', () => {
  it('provisions a tenant in one go: its admin logs in with the one-time password, must change it, and holds the tenant package', async () => {
    expect(tenantA.password).toMatch(/^[A-Za-z0-9]{12}$/);
    const a = client(t, tenantA.token);
    const info = json(await a.get('/api/blade-user/info')).data;
    // The harness changed the one-time password the way the console forces it.
    expect(info).toMatchObject({
      tenantId: '610001',
      account: 'admin',
      roles: ['administrator'],
      mustChangePassword: false,
    });
    const buttons = JSON.stringify(json(await a.get('/api/blade-system/menu/buttons')).data);
    expect(buttons).toContain('"user_add"');
    expect(buttons).toContain('"role_grant"');
    for (const platformOnly of ['"tenant_add"', '"client_add"', '"param_add"', '"menu_add"', '"dict_add"'])
      expect(buttons).not.toContain(platformOnly);
    // Its own department, role and top menus exist.
    expect(json(await a.get('/api/blade-system/dept/tree')).data).toHaveLength(1);
    expect(json(await a.get('/api/blade-system/menu/top-menu')).data.length).toBeGreaterThan(0);
  });

  it('answers 403 to a tenant administrator on tenants, clients, params, system dictionaries and menus', async () => {
    const a = client(t, tenantA.token);
    for (const url of [
      '/api/blade-system/tenant/list',
      '/api/blade-system/client/list',
      '/api/blade-system/param/list',
      '/api/blade-system/dict/parent-list',
      '/api/blade-system/menu/lazy-list',
    ]) {
      const res = await a.get(url);
      expect([url, res.statusCode]).toEqual([url, 403]);
    }
    expect((await a.post('/api/blade-system/tenant/submit', { tenantName: 'x' })).statusCode).toBe(403);
  });

  it('generates a tenant id when none is given, refuses a duplicate, and refuses a datasource call without a tenant id', async () => {
    const p = client(t, platform);
    const made = json(await p.post('/api/blade-system/tenant/submit', { tenantName: '自动编号' })).data;
    expect(made.tenantId).toMatch(/^\d{6}$/);
    expect(made.adminPassword).toMatch(/^[A-Za-z0-9]{12}$/);
    const first = await loginToken(t, { tenantId: made.tenantId, username: 'admin', password: made.adminPassword });
    expect(first.body.must_change_password).toBe(true);
    expect(json(await client(t, first.access).get('/api/blade-user/page')).msg).toBe('请先修改密码');
    const dup = await p.post('/api/blade-system/tenant/submit', { tenantId: '610001', tenantName: '重复' });
    expect(dup.statusCode).toBe(400);
    expect(json(dup)).toMatchObject({ msg: '租户编号已存在', data: [{ field: 'tenantId' }] });
    // The body names the tenant (docs/tenants.md "Moving a tenant"); test/tenant-move.test.ts moves one.
    const ds = await p.post('/api/blade-system/tenant/datasource?tenantId=610001&datasourceId=1', {});
    expect(ds.statusCode).toBe(400);
    expect(json(ds).data).toEqual([{ field: 'tenantId', message: '请给出 6 到 12 位数字的租户编号' }]);
    // The detail never carries the one-time password.
    expect(JSON.stringify(json(await p.get(`/api/blade-system/tenant/detail?id=${made.id}`)).data)).not.toContain(
      'adminPassword',
    );
  });

  it('enforces the account quota when adding users and the expiry at login', async () => {
    const p = client(t, platform);
    const q = await provisionedTenant(t, platform, '620001');
    expect(json(await p.post(`/api/blade-system/tenant/setting?ids=${q.tenantRowId}`, { accountNumber: 2 })).msg).toBe(
      '配置成功',
    );
    const a = client(t, q.token);
    const add = (account: string) =>
      a.post('/api/blade-user/submit', { account, realName: account, password: 'Quota#2026x' });
    expect((await add('second')).statusCode).toBe(200);
    const third = await add('third');
    expect(third.statusCode).toBe(400);
    expect(json(third).msg).toContain('额度');
    await p.post(`/api/blade-system/tenant/setting?ids=${q.tenantRowId}`, {
      accountNumber: -1,
      expireTime: '2000-01-01 00:00:00',
    });
    const res = await login(t, { tenantId: '620001', username: 'second', password: 'Quota#2026x' });
    expect(res.json()).toMatchObject({ error_description: '租户已过期' });
  });
});

describe('departments', () => {
  it('keeps ancestors right when a department moves, and refuses removal with children or users', async () => {
    const a = client(t, tenantA.token);
    const root = json(await a.get('/api/blade-system/dept/tree')).data[0];
    const add = async (deptName: string, parentId: string) =>
      json(await a.post('/api/blade-system/dept/submit', { deptName, parentId })).data;
    const east = await add('东区', root.id);
    const west = await add('西区', root.id);
    const team = await add('一组', east.id);
    const sub = await add('一组一班', team.id);
    expect(sub.ancestors).toBe(`0,${root.id},${east.id},${team.id}`);
    const moved = json(
      await a.post('/api/blade-system/dept/submit', { id: team.id, deptName: '一组', parentId: west.id }),
    );
    expect(moved.msg).toBe('更新成功');
    const after = json(await a.get(`/api/blade-system/dept/detail?id=${sub.id}`)).data;
    expect(after.ancestors).toBe(`0,${root.id},${west.id},${team.id}`);
    const cycle = await a.post('/api/blade-system/dept/submit', { id: west.id, deptName: '西区', parentId: sub.id });
    expect(json(cycle).msg).toBe('上级机构不能是自己或自己的下级');
    // lazy-list: one level with hasChildren.
    const level = json(await a.get(`/api/blade-system/dept/lazy-list?parentId=${root.id}`)).data;
    expect(level.map((d: { deptName: string; hasChildren: boolean }) => [d.deptName, d.hasChildren])).toEqual([
      ['东区', false],
      ['西区', true],
    ]);
    const withKids = await a.post(`/api/blade-system/dept/remove?ids=${west.id}`);
    expect(json(withKids)).toMatchObject({ code: 400, msg: '请先删除下级机构' });
    await a.post('/api/blade-user/submit', {
      account: 'in-sub',
      realName: '班员',
      password: 'Member#2026x',
      deptId: sub.id,
    });
    const withUsers = await a.post(`/api/blade-system/dept/remove?ids=${sub.id}`);
    expect(json(withUsers).msg).toBe('机构下仍有 1 个用户，不能删除');
  });
});

describe('roles and grants', () => {
  it('grants menus and scopes in one transaction; a failure halfway keeps the old grants', async () => {
    const a = client(t, tenantA.token);
    const role = json(await a.post('/api/blade-system/role/submit', { roleName: '审计', roleAlias: 'auditor' })).data;
    const tree = json(await a.get('/api/blade-system/menu/grant-tree')).data;
    const postMenu = JSON.stringify(tree.menu).match(/"id":"(\d+)","parentId":"\d+","title":"岗位管理"/)![1];
    expect(json(await a.post('/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [postMenu] })).msg).toBe(
      '授权成功',
    );
    const scope = json(
      await a.post('/api/blade-system/data-scope/submit', {
        menuId: postMenu,
        resourceCode: 'user',
        scopeName: '本人',
        scopeType: 2,
      }),
    ).data;
    // Make the scope insert fail inside the grant, after the menus were already replaced in the same transaction.
    await t.services.db.execute(
      sql.raw(`create or replace function atrium_test_fail() returns trigger language plpgsql as $$ begin
      if new.scope_id = ${scope.id} then raise exception 'injected failure'; end if; return new; end $$`),
    );
    await t.services.db.execute(
      sql.raw(
        'create trigger atrium_test_fail before insert on role_scope for each row execute function atrium_test_fail()',
      ),
    );
    try {
      const res = await a.post('/api/blade-system/role/grant', {
        roleIds: [role.id],
        menuIds: [],
        dataScopeIds: [scope.id],
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.services.db.execute(sql.raw('drop trigger atrium_test_fail on role_scope'));
    }
    const keys = json(await a.get(`/api/blade-system/menu/role-tree-keys?roleIds=${role.id}`)).data;
    expect(keys).toEqual({ menu: [postMenu], dataScope: [], apiScope: [] });
  });

  it('refuses a role moved below itself', async () => {
    const a = client(t, tenantA.token);
    const top = json(await a.post('/api/blade-system/role/submit', { roleName: '上级', roleAlias: 'cycle_top' })).data;
    const kid = json(
      await a.post('/api/blade-system/role/submit', { roleName: '下级', roleAlias: 'cycle_kid', parentId: top.id }),
    ).data;
    const grand = json(
      await a.post('/api/blade-system/role/submit', { roleName: '再下级', roleAlias: 'cycle_grand', parentId: kid.id }),
    ).data;
    for (const parentId of [top.id, grand.id]) {
      const res = await a.post('/api/blade-system/role/submit', { ...top, parentId });
      expect([parentId, res.statusCode, json(res).msg]).toEqual([parentId, 400, '上级角色不能是自己或自己的下级']);
    }
    expect(json(await a.get(`/api/blade-system/role/detail?id=${top.id}`)).data.parentId).toBe('0');
    // Moving the grandchild up is fine.
    expect((await a.post('/api/blade-system/role/submit', { ...grand, parentId: top.id })).statusCode).toBe(200);
  });

  it('cannot grant more than the granter holds; refuses removing a role in use', async () => {
    const p = client(t, platform);
    const tenantMenu = await rowsOf<{ id: string }>(t.services.db, sql`select id from menu where code = 'tenant'`);
    const tenantMenuId = String(tenantMenu[0].id);
    const a = client(t, tenantA.token);
    const role = json(await a.post('/api/blade-system/role/submit', { roleName: '越权', roleAlias: 'overreach' })).data;
    const res = await a.post('/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [tenantMenuId] });
    expect(res.statusCode).toBe(403);
    expect(json(res).msg).toBe('不能授予超出自身的权限');
    // The platform administrator may grant any platform menu in their own tenant.
    const own = json(
      await p.post('/api/blade-system/role/submit', { roleName: '平台审计', roleAlias: 'p_audit' }),
    ).data;
    expect(
      (await p.post('/api/blade-system/role/grant', { roleIds: [own.id], menuIds: [tenantMenuId] })).statusCode,
    ).toBe(200);
    // In use: a user holds it.
    await a.post('/api/blade-user/submit', {
      account: 'holder',
      realName: '持有者',
      password: 'Holder#2026x',
      roleIds: [role.id],
    });
    const rm = await a.post(`/api/blade-system/role/remove?ids=${role.id}`);
    expect(json(rm)).toMatchObject({ code: 400, msg: '角色仍有 1 个用户在用，不能删除' });
    const admin = json(await a.get('/api/blade-system/role/list?roleAlias=administrator')).data.records[0];
    expect(json(await a.post(`/api/blade-system/role/remove?ids=${admin.id}`)).msg).toBe(
      '租户管理员角色不能删除或改名',
    );
  });

  it('a user sees exactly the menus and buttons their role was granted', async () => {
    const a = client(t, tenantA.token);
    const ids = await menuIds(['system', 'post', 'post_add', 'post_view']);
    expect(ids).toHaveLength(4);
    const role = json(
      await a.post('/api/blade-system/role/submit', { roleName: '岗位员', roleAlias: 'post_clerk' }),
    ).data;
    await a.post('/api/blade-system/role/grant', { roleIds: [role.id], menuIds: ids });
    await a.post('/api/blade-user/submit', {
      account: 'clerk',
      realName: '岗位员',
      password: 'Clerk#2026xx',
      roleIds: [role.id],
    });
    const clerk = client(t, await userToken(t, '610001', 'clerk', 'Clerk#2026xx'));
    const routes = json(await clerk.get('/api/blade-system/menu/routes')).data;
    expect(routes.map((m: { code: string }) => m.code)).toEqual(['system']);
    expect(routes[0].children.map((m: { code: string }) => m.code)).toEqual(['post']);
    // Only the top menus that lead to something granted are offered.
    expect(json(await clerk.get('/api/blade-system/menu/top-menu')).data.map((m: { code: string }) => m.code)).toEqual([
      'system',
    ]);
    const buttons = JSON.stringify(json(await clerk.get('/api/blade-system/menu/buttons')).data);
    expect(buttons).toContain('"post_add"');
    expect(buttons).not.toContain('"post_delete"');
    expect((await clerk.get('/api/blade-system/post/list')).statusCode).toBe(200);
    expect((await clerk.post('/api/blade-system/post/remove?ids=1')).statusCode).toBe(403);
    expect((await clerk.get('/api/blade-user/page')).statusCode).toBe(403);
  });
});

describe('API scopes', () => {
  it('open exactly the matching calls, and never beyond the menu they belong to', async () => {
    const a = client(t, tenantA.token);
    const [postMenu] = await menuIds(['post']);
    const scope = async (scopeName: string, scopePath: string, scopeMethod: string) =>
      json(
        await a.post('/api/blade-system/api-scope/submit', {
          menuId: postMenu,
          resourceCode: 'post',
          scopeName,
          scopePath,
          scopeMethod,
        }),
      ).data.id as string;
    const listOnly = await scope('岗位列表', '/api/blade-system/post/list', 'GET');
    const wide = await scope('全部接口', '/api/*', '*');
    const r = json(await a.post('/api/blade-system/role/submit', { roleName: '接口', roleAlias: 'api_only' })).data;
    await a.post('/api/blade-system/role/grant', { roleIds: [r.id], menuIds: [], apiScopeIds: [listOnly] });
    await a.post('/api/blade-user/submit', {
      account: 'api-user',
      realName: '接口',
      password: 'ApiUser#2026',
      roleIds: [r.id],
    });
    const login1 = client(t, await userToken(t, '610001', 'api-user', 'ApiUser#2026'));
    expect((await login1.get('/api/blade-system/post/list')).statusCode).toBe(200);
    expect((await login1.get('/api/blade-system/post/detail?id=1')).statusCode).toBe(403);
    // A wildcard scope of the post menu still opens only post calls.
    await a.post('/api/blade-system/role/grant', { roleIds: [r.id], menuIds: [], apiScopeIds: [wide] });
    expect((await login1.post('/api/blade-system/post/remove?ids=1')).statusCode).toBe(404);
    expect((await login1.get('/api/blade-user/page')).statusCode).toBe(403);
    expect((await login1.get('/api/blade-system/role/list')).statusCode).toBe(403);
  });
});

describe('users', () => {
  it('keeps the sex dictionary values and the birthday', async () => {
    const a = client(t, tenantA.token);
    const made = await a.post('/api/blade-user/submit', {
      account: 'sexless',
      realName: '未知',
      password: 'Sexless#2026',
      sex: 3,
      birthday: '1990-05-04',
    });
    expect(made.statusCode).toBe(200);
    const row = json(await a.get(`/api/blade-user/detail?id=${json(made).data.id}`)).data;
    expect(row).toMatchObject({ sex: 3 });
    // A birthday is a calendar day: answered as sent (docs/resources.md "Kinds and columns").
    expect(row.birthday).toBe('1990-05-04');
    const bad = await a.post('/api/blade-user/submit', {
      account: 'sex4',
      realName: '四',
      password: 'Sexfour#2026',
      sex: 4,
    });
    expect(json(bad)).toMatchObject({ code: 400, data: [{ field: 'sex', message: '性别取值为 1 男、2 女、3 未知' }] });
  });

  it('two concurrent submits of the same account: one succeeds, the other gets a clear 400', async () => {
    const a = client(t, tenantA.token);
    const body = { account: 'twin', realName: '双胞胎', password: 'Twin#2026xx' };
    const [r1, r2] = await Promise.all([
      a.post('/api/blade-user/submit', body),
      a.post('/api/blade-user/submit', body),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 400]);
    const loser = [r1, r2].find((r) => r.statusCode === 400)!;
    expect(json(loser)).toMatchObject({ msg: '账号已存在', data: [{ field: 'account' }] });
  });

  it('answers 409 to a stale version; never returns a password hash', async () => {
    const a = client(t, tenantA.token);
    const u = json(
      await a.post('/api/blade-user/submit', { account: 'stale', realName: '旧', password: 'Stale#2026xx' }),
    ).data;
    expect(u.password).toBeUndefined();
    expect(
      (await a.post('/api/blade-user/update', { id: u.id, version: 1, account: 'stale', realName: '新' })).statusCode,
    ).toBe(200);
    const late = await a.post('/api/blade-user/update', { id: u.id, version: 1, account: 'stale', realName: '更新' });
    expect(late.statusCode).toBe(409);
    expect(json(late).msg).toBe('数据已被他人修改，请刷新后重试');
    const page = await a.get('/api/blade-user/page?size=200');
    expect(page.body).not.toMatch(/scrypt|"password"/);
  });

  it('resets to a random one-time password that must be changed, and the old one stops working', async () => {
    const a = client(t, tenantA.token);
    const u = json(
      await a.post('/api/blade-user/submit', { account: 'forgetful', realName: '健忘', password: 'Forget#2026x' }),
    ).data;
    const r1 = json(await a.post(`/api/blade-user/reset-password?userIds=${u.id}`)).data[0];
    const r2 = json(await a.post(`/api/blade-user/reset-password?userIds=${u.id}`)).data[0];
    expect(r1.password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(r1.password).not.toBe(r2.password);
    expect((await login(t, { tenantId: '610001', username: 'forgetful', password: r1.password })).statusCode).toBe(400);
    const ok = await loginToken(t, { tenantId: '610001', username: 'forgetful', password: r2.password });
    const forgetful = client(t, ok.access);
    const info = json(await forgetful.get('/api/blade-user/info')).data;
    expect(info.mustChangePassword).toBe(true);
    // Until it is changed, only the change dialog and the shell answer.
    const blocked = await forgetful.get('/api/blade-system/post/list');
    expect(json(blocked)).toMatchObject({ code: 403, msg: '请先修改密码' });
    const changed = await forgetful.post('/api/blade-user/update-password', {
      oldPassword: md5Hex(r2.password),
      newPassword: 'Remember#2026',
      newPassword1: 'Remember#2026',
    });
    expect(changed.statusCode).toBe(200);
    expect((await forgetful.get('/api/blade-user/info')).statusCode).toBe(200);
    // Now the ordinary rules answer (this user holds no post code).
    expect(json(await forgetful.get('/api/blade-system/post/list')).msg).toBe('没有权限：缺少 post');
  });

  it('approves register-guest applications and unlocks a locked account', async () => {
    const guest = await t.app.inject({
      method: 'POST',
      url: '/api/blade-user/register-guest',
      payload: { tenantId: '610001', account: 'guest1', name: '访客', password: 'Guest#2026xx' },
    });
    expect(guest.statusCode).toBe(200);
    const a = client(t, tenantA.token);
    const pending = json(await a.get('/api/blade-user/page?status=2')).data.records;
    expect(pending.map((u: { account: string }) => u.account)).toEqual(['guest1']);
    expect(json(await a.post(`/api/blade-user/approve?ids=${pending[0].id}`)).msg).toBe('审核成功');
    expect(json(await a.post(`/api/blade-user/approve?ids=${pending[0].id}`)).msg).toBe('只能审核待审核的用户');
    for (let i = 0; i < 5; i++) await login(t, { tenantId: '610001', username: 'guest1', password: 'wrong' });
    expect((await login(t, { tenantId: '610001', username: 'guest1', password: 'Guest#2026xx' })).statusCode).toBe(429);
    expect(json(await a.post(`/api/blade-user/unlock?userIds=${pending[0].id}`)).msg).toBe('解锁成功');
    expect((await login(t, { tenantId: '610001', username: 'guest1', password: 'Guest#2026xx' })).statusCode).toBe(200);
  });

  it('filters the page by department and below', async () => {
    const a = client(t, tenantA.token);
    const root = json(await a.get('/api/blade-system/dept/tree')).data[0];
    const top = json(await a.post('/api/blade-system/dept/submit', { deptName: '总部', parentId: root.id })).data;
    const child = json(await a.post('/api/blade-system/dept/submit', { deptName: '总部一科', parentId: top.id })).data;
    await a.post('/api/blade-user/submit', {
      account: 'hq1',
      realName: '总部人',
      password: 'Hq#2026xxxx',
      deptId: top.id,
    });
    await a.post('/api/blade-user/submit', {
      account: 'hq2',
      realName: '科员',
      password: 'Hq#2026xxxx',
      deptId: child.id,
    });
    const page = json(await a.get(`/api/blade-user/page?deptId=${top.id}`)).data;
    expect(page.records.map((u: { account: string }) => u.account).sort()).toEqual(['hq1', 'hq2']);
    expect(page.records.find((u: { account: string }) => u.account === 'hq2').deptName).toBe('总部一科');
    expect((await a.get('/api/blade-user/page?deptId=abc')).statusCode).toBe(400);
  });
});

describe('data scopes', () => {
  it('applies each scope type, unions several roles, and defaults to own department', async () => {
    const a = client(t, tenantA.token);
    const root = json(await a.get('/api/blade-system/dept/tree')).data[0];
    const dept = async (deptName: string, parentId: string) =>
      json(await a.post('/api/blade-system/dept/submit', { deptName, parentId })).data;
    const north = await dept('北区', root.id);
    const northA = await dept('北区甲', north.id);
    const south = await dept('南区', root.id);
    const mk = (account: string, deptId: string, roleIds: string[] = []) =>
      a
        .post('/api/blade-user/submit', { account, realName: account, password: 'Scope#2026xx', deptId, roleIds })
        .then((r) => json(r).data);
    await mk('n-1', north.id);
    await mk('na-1', northA.id);
    await mk('s-1', south.id);
    const userMenu = await rowsOf<{ id: string; code: string }>(
      t.services.db,
      sql`select id, code from menu where code in ('system', 'user')`,
    );
    const menuIds = userMenu.map((r) => String(r.id));
    const userMenuId = String(userMenu.find((r) => r.code === 'user')!.id);
    const scopeOf = async (scopeName: string, scopeType: number, extra: object = {}) =>
      json(
        await a.post('/api/blade-system/data-scope/submit', {
          menuId: userMenuId,
          resourceCode: 'user',
          scopeName,
          scopeType,
          ...extra,
        }),
      ).data;
    const roleWith = async (alias: string, scopeIds: string[]) => {
      const r = json(await a.post('/api/blade-system/role/submit', { roleName: alias, roleAlias: alias })).data;
      expect(
        json(await a.post('/api/blade-system/role/grant', { roleIds: [r.id], menuIds, dataScopeIds: scopeIds })).code,
      ).toBe(200);
      return r.id as string;
    };
    const seen = async (account: string, deptId: string, roleIds: string[]) => {
      await mk(account, deptId, roleIds);
      const token = await userToken(t, '610001', account, 'Scope#2026xx');
      const res = json(await client(t, token).get('/api/blade-user/page?size=200')).data;
      return (res.records as { account: string }[]).map((u) => u.account).sort();
    };
    const all = await scopeOf('全部', 1);
    const own = await scopeOf('本人', 2);
    const dept3 = await scopeOf('本部门', 3);
    const below = await scopeOf('本部门及以下', 4);
    const custom = await scopeOf('南区自定义', 5, { scopeColumn: 'account', scopeValue: 's-1' });
    const bad = await a.post('/api/blade-system/data-scope/submit', {
      menuId: userMenuId,
      resourceCode: 'user',
      scopeName: 'x',
      scopeType: 5,
      scopeColumn: 'password',
      scopeValue: '1',
    });
    expect(bad.statusCode).toBe(400);

    const rNone = await roleWith('r_none', []);
    expect(await seen('v-none', north.id, [rNone])).toEqual(['n-1', 'v-none']);
    const rOwn = await roleWith('r_own', [own.id]);
    expect(await seen('v-own', north.id, [rOwn])).toEqual([]);
    const rDept = await roleWith('r_dept', [dept3.id]);
    expect(await seen('v-dept', northA.id, [rDept])).toEqual(['na-1', 'v-dept']);
    const rBelow = await roleWith('r_below', [below.id]);
    expect(await seen('v-below', north.id, [rBelow])).toEqual(['n-1', 'na-1', 'v-below', 'v-dept', 'v-none', 'v-own']);
    const rCustom = await roleWith('r_custom', [custom.id]);
    expect(await seen('v-custom', north.id, [rCustom])).toEqual(['s-1']);
    // Union of two roles.
    expect(await seen('v-union', northA.id, [rDept, rCustom])).toEqual(['na-1', 's-1', 'v-dept', 'v-union']);
    const rAll = await roleWith('r_all', [all.id]);
    const everyone = await seen('v-all', south.id, [rAll]);
    expect(everyone).toContain('admin');
    expect(everyone).toContain('n-1');
    // Out of scope is a 404 for detail and update, like a foreign id.
    const token = await userToken(t, '610001', 'v-dept', 'Scope#2026xx');
    const s1 = (
      await t.services.db
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.account, 's-1'), eq(user.tenantId, '610001')))
    )[0];
    expect((await client(t, token).get(`/api/blade-user/detail?id=${s1.id}`)).statusCode).toBe(404);
  });
});

describe('dictionaries and parameters', () => {
  it('keeps child code and parent fixed, serves dictionary(code), and protects sealed entries from tenant users', async () => {
    const a = client(t, tenantA.token);
    const parent = json(
      await a.post('/api/blade-system/dict-biz/submit', { code: 'shift', dictValue: '班次', sort: 1, isSealed: 0 }),
    ).data;
    const child = json(
      await a.post('/api/blade-system/dict-biz/submit', {
        parentId: parent.id,
        code: 'ignored',
        dictKey: 'day',
        dictValue: '白班',
        sort: 1,
        isSealed: 1,
      }),
    ).data;
    expect(child.code).toBe('shift');
    const noKey = await a.post('/api/blade-system/dict-biz/submit', {
      parentId: parent.id,
      code: 'shift',
      dictValue: '夜班',
      sort: 2,
      isSealed: 0,
    });
    expect(json(noKey)).toMatchObject({ code: 400, msg: '请输入字典键值' });
    expect(
      json(await a.get('/api/blade-system/dict-biz/dictionary?code=shift')).data.map(
        (d: { dictKey: string }) => d.dictKey,
      ),
    ).toEqual(['day']);
    const edit = await a.post('/api/blade-system/dict-biz/submit', {
      id: child.id,
      parentId: parent.id,
      code: 'shift',
      dictKey: 'day',
      dictValue: '早班',
      sort: 1,
      isSealed: 0,
    });
    expect(json(edit)).toMatchObject({ code: 400, msg: '字典已封存，不能修改或删除' });
    expect(json(await a.post(`/api/blade-system/dict-biz/remove?ids=${child.id}`)).msg).toBe(
      '字典已封存，不能修改或删除',
    );
    expect(json(await a.post(`/api/blade-system/dict-biz/remove?ids=${parent.id}`)).msg).toBe('请先删除子字典');
    const children = json(await a.get(`/api/blade-system/dict-biz/child-list?parentId=${parent.id}`)).data;
    expect(children.map((c: { dictValue: string }) => c.dictValue)).toEqual(['白班']);
    const missing = await a.post('/api/blade-system/dict-biz/submit', { dictValue: '无编号' });
    expect(
      json(missing)
        .data.map((f: { field: string; message: string }) => `${f.field}:${f.message}`)
        .sort(),
    ).toEqual(['code:请输入字典编号', 'isSealed:请选择字典封存', 'sort:请输入字典排序']);
    // System dictionaries: readable by everyone through dictionary(code).
    expect(json(await a.get('/api/blade-system/dict/dictionary?code=sex')).data.length).toBeGreaterThan(1);
  });

  it('validates parameters with the messages of docs/product.md "Validation", in zh and en', async () => {
    const p = client(t, platform);
    const res = await p.post('/api/blade-system/param/submit', { paramName: '', paramKey: ' ' });
    expect(res.statusCode).toBe(400);
    expect(
      json(res)
        .data.map((f: { message: string }) => f.message)
        .sort(),
    ).toEqual(['请输入参数名称', '请输入参数键值', '请输入参数键名'].sort());
    const en = await client(t, platform, 'en').post('/api/blade-system/param/submit', { paramName: '' });
    expect(json(en).data.map((f: { message: string }) => f.message)).toContain('Enter the parameter name');
    const ok = await p.post('/api/blade-system/param/submit', {
      paramName: '测试',
      paramKey: 'test.key',
      paramValue: '1',
    });
    expect(json(ok).msg).toBe('新增成功');
    const dup = await p.post('/api/blade-system/param/submit', {
      paramName: '测试',
      paramKey: 'test.key',
      paramValue: '2',
    });
    expect(json(dup)).toMatchObject({ msg: '参数键名已存在', data: [{ field: 'paramKey' }] });
  });
});

describe('OAuth clients and menus', () => {
  it('shows a client secret once; later reads mask it; the new client works for login', async () => {
    const p = client(t, platform);
    const made = json(
      await p.post('/api/blade-system/client/submit', {
        clientId: 'mobile',
        authorizedGrantTypes: 'captcha,refresh_token',
      }),
    ).data;
    expect(made.clientSecret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(json(await p.get(`/api/blade-system/client/detail?id=${made.id}`)).data.clientSecret).toBe('******');
    expect(JSON.stringify(json(await p.get('/api/blade-system/client/list')).data)).not.toContain(made.clientSecret);
    // Logs in through the new client with `secret`: the status of the token call.
    const loginWith = async (secret: string) => {
      const captcha = await newCaptcha(t);
      const q = new URLSearchParams({
        tenantId: '000000',
        username: 'admin',
        password: md5Hex('admin'),
        grant_type: 'captcha',
        scope: 'all',
      });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/blade-auth/oauth/token?${q}`,
        headers: {
          authorization: `Basic ${Buffer.from(`mobile:${secret}`).toString('base64')}`,
          'tenant-id': '000000',
          'captcha-key': captcha.key,
          'captcha-code': captcha.code,
        },
      });
      return res.statusCode;
    };
    expect(await loginWith(made.clientSecret)).toBe(200);

    // A `secret` field (docs/resources.md "Secrets"): an update sending the mask, nothing or '' keeps the secret;
    // a new value replaces it and is not answered.
    let version = made.version as number;
    for (const kept of [{ clientSecret: '******' }, { clientSecret: '' }, {}]) {
      const res = await p.post('/api/blade-system/client/submit', {
        id: made.id,
        version,
        clientId: 'mobile',
        authorizedGrantTypes: 'captcha,refresh_token',
        ...kept,
      });
      expect([JSON.stringify(kept), res.statusCode, json(res).data.clientSecret]).toEqual([
        JSON.stringify(kept),
        200,
        '******',
      ]);
      version = json(res).data.version;
    }
    expect(await loginWith(made.clientSecret)).toBe(200);
    const fresh = 'A-new-client-secret-2026';
    const changed = await p.post('/api/blade-system/client/submit', {
      id: made.id,
      version,
      clientId: 'mobile',
      authorizedGrantTypes: 'captcha,refresh_token',
      clientSecret: fresh,
    });
    expect(json(changed).data.clientSecret).toBe('******');
    expect(changed.body).not.toContain(fresh);
    expect(await loginWith(fresh)).toBe(200);
    expect(await loginWith(made.clientSecret)).not.toBe(200);
  });

  it('refuses removing a menu with children; lazy lists answer one level', async () => {
    const p = client(t, platform);
    const roots = json(await p.get('/api/blade-system/menu/lazy-list?parentId=0')).data;
    const system = roots.find((m: { code: string }) => m.code === 'system');
    expect(system.hasChildren).toBe(true);
    const rm = await p.post(`/api/blade-system/menu/remove?ids=${system.id}`);
    expect(json(rm)).toMatchObject({ code: 400, msg: '请先删除子菜单' });
    const leaf = json(
      await p.post('/api/blade-system/menu/submit', {
        parentId: system.id,
        code: 'tmp_menu',
        name: '临时',
        path: '/system/tmp',
        category: 1,
      }),
    ).data;
    expect(json(await p.post(`/api/blade-system/menu/remove?ids=${leaf.id}`)).msg).toBe('删除成功');
    const grants = await t.services.db.select().from(roleMenu).where(eq(roleMenu.menuId, leaf.id));
    expect(grants).toEqual([]);
  });
});
