import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { auditLog, menu, roleMenu } from '../../src/db/schema/index.ts';
import { md5Hex } from '../../src/platform/password.ts';
import type { Binding } from '../../src/platform/resource.ts';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from '../harness.ts';
import { dbOfTenant, MOVE_NETWORKS, moveTenant, type TenantDatabase } from './moved.ts';

/**
 * No escalation inside a tenant (docs/system-api.md "Permissions"). The matrix is generated from the route table:
 * every POST route of a resource whose binding guards its records (users, roles) is called by a limited user on
 * the administrator (refused, nothing changes) and on a peer it covers (allowed), and by the tenant administrator
 * on a peer. A new route under those resources fails the suite until it is classified here. `moved` (PostgreSQL): the
 * tenant lives on a database of its own (test/escalation-moved.test.ts; docs/tenants.md "Tests of a moved tenant").
 */
export async function escalationSuite(moved: boolean): Promise<void> {
  const t: TestApp = await createTestApp(moved ? { datasourcePrivateNetworks: MOVE_NETWORKS } : {}, undefined, {
    logger: { level: 'error' },
  });
  let target: TenantDatabase | undefined;
  const TENANT = moved ? '739311' : '739301';
  const PASSWORD = 'Limited#2026x';

  let platform: string;
  let admin: string; // the tenant administrator's token
  let tenantRowId: string;
  let adminUserId: string;
  let adminRoleId: string;
  let rootDept: string;
  const ids: Record<string, string> = {}; // menu ids by code
  let limitedRole: string; // user, role and top-menu screens with their buttons
  let peerRole: string; // the user screen only: covered by the limited role
  let limited: string; // token of a user holding the limited role
  let limitedUserId: string;

  const guarded = [...t.services.registry.bindings.values()].filter((b) => b.hooks.guard);
  let seq = 0;

  const api = (token: string, lang?: 'en') => client(t, token, lang);
  const data = <T>(res: { json(): unknown }) => (res.json() as { data: T }).data;

  async function menuIds(codes: string[]): Promise<string[]> {
    const rows = await t.services.db
      .select({ id: menu.id, code: menu.code })
      .from(menu)
      .where(inArray(menu.code, codes));
    return rows.map((r) => r.id);
  }

  /** The menu with this code and every menu and button below it. */
  async function subtreeOf(code: string): Promise<string[]> {
    const all = await t.services.db.select({ id: menu.id, parentId: menu.parentId, code: menu.code }).from(menu);
    const root = all.find((m) => m.code === code)!;
    const out = new Set([root.id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const m of all)
        if (out.has(m.parentId) && !out.has(m.id)) {
          out.add(m.id);
          grew = true;
        }
    }
    return [...out];
  }

  async function newRole(token: string, menus: string[], scopes: { data?: string[]; api?: string[] } = {}) {
    seq += 1;
    const res = await api(token).post('/api/blade-system/role/submit', {
      roleName: `r${seq}`,
      roleAlias: `r_${seq}`,
      parentId: '0',
      sort: seq,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = data<{ id: string }>(res).id;
    const g = await api(admin).post('/api/blade-system/role/grant', {
      roleIds: [id],
      menuIds: menus,
      dataScopeIds: scopes.data ?? [],
      apiScopeIds: scopes.api ?? [],
    });
    expect(g.statusCode, g.body).toBe(200);
    return id;
  }

  async function newUser(roleIds: string[]) {
    seq += 1;
    const account = `u${seq}`;
    const res = await api(admin).post('/api/blade-user/submit', {
      account,
      password: PASSWORD,
      realName: account,
      deptId: rootDept,
      roleIds,
    });
    expect(res.statusCode, res.body).toBe(200);
    return { id: data<{ id: string }>(res).id, account };
  }

  async function userDetail(id: string) {
    return data<Record<string, unknown>>(await api(admin).get(`/api/blade-user/detail?id=${id}`));
  }

  async function roleKeys(id: string) {
    return data<unknown>(await api(admin).get(`/api/blade-system/menu/role-tree-keys?roleIds=${id}`));
  }

  async function roleDetail(id: string) {
    return data<Record<string, unknown>>(await api(admin).get(`/api/blade-system/role/detail?id=${id}`));
  }

  beforeAll(async () => {
    platform = (await loginToken(t)).access;
    const tenant = await provisionedTenant(t, platform, TENANT);
    admin = tenant.token;
    tenantRowId = tenant.tenantRowId;
    const info = data<{ id: string; deptId: string }>(await api(admin).get('/api/blade-user/info'));
    adminUserId = info.id;
    rootDept = info.deptId;
    const roles = data<{ id: string; roleAlias: string }[]>(await api(admin).get('/api/blade-system/role/tree'));
    adminRoleId = roles.find((r) => r.roleAlias === 'administrator')!.id;
    for (const code of ['user', 'role', 'topmenu', 'post', 'dept']) [ids[code]] = await menuIds([code]);
    const limitedMenus = [...(await subtreeOf('user')), ...(await subtreeOf('role')), ...(await subtreeOf('topmenu'))];
    limitedRole = await newRole(admin, limitedMenus);
    peerRole = await newRole(admin, await subtreeOf('user'));
    const u = await newUser([limitedRole]);
    limitedUserId = u.id;
    limited = await userToken(t, TENANT, u.account, PASSWORD);
    // Moved after its roles and users are made: they go with it.
    if (moved) {
      target = await moveTenant(t, platform, TENANT);
      // Its rows are read and written on its own database from here on.
      expect(dbOfTenant(t, TENANT)).not.toBe(t.services.db);
    }
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await target?.drop();
  });

  type Op = { route: string; call: (token: string, id: string) => Promise<{ statusCode: number; body: string }> };

  /** How each POST route of a guarded resource acts on one record; self-service routes act on the caller only. */
  function opsOf(b: Binding, routes: string[]): { ops: Op[]; unclassified: string[] } {
    const base = b.def.base;
    const ops: Op[] = [];
    const unclassified: string[] = [];
    const actions = b.def.actions ?? {};
    const selfOnly = new Set([
      `${base}/update-password`,
      `${base}/update-info`,
      `${base}/register-guest`,
      `${base}/detail`,
    ]);
    const detailOf = (id: string) => (b.def.code === 'user' ? userDetail(id) : roleDetail(id));
    const update = (path: string) => async (token: string, id: string) => {
      const d = await detailOf(id);
      return api(token).post(path, d);
    };
    for (const route of routes) {
      if (selfOnly.has(route)) continue;
      if (route === `${base}/submit` || route === `${base}/update`) ops.push({ route, call: update(route) });
      else if (route === `${base}/remove`)
        ops.push({ route, call: (token, id) => api(token).post(`${route}?ids=${id}`) });
      else {
        const name = Object.keys(actions).find((n) => `${base}/${actions[n].path ?? n}` === route);
        if (!name) {
          unclassified.push(route);
          continue;
        }
        const a = actions[name];
        const idField = a.idField ?? (a.target === 'many' ? 'ids' : 'id');
        const input: Record<string, unknown> = {};
        for (const [k, f] of Object.entries(a.input ?? {})) {
          if (f.kind === 'ref') input[k] = b.def.code === 'user' && k === 'roleIds' ? [peerRole] : [];
          else if (f.kind === 'int') input[k] = Math.max(1, f.min ?? 1);
          else if (f.kind === 'textarea' || f.kind === 'text') input[k] = 'x';
        }
        ops.push({
          route,
          call: (token, id) => api(token).post(route, { [idField]: a.target === 'many' ? [id] : id, ...input }),
        });
      }
    }
    return { ops, unclassified };
  }

  const postRoutes = (b: Binding) =>
    t.routeTable
      .filter((r) => r.method === 'POST' && r.url.startsWith(`${b.def.base}/`))
      .filter((r) => b.def.code !== 'role' || !r.url.startsWith('/api/blade-system/role-'))
      .map((r) => r.url);

  const refused = (body: string) =>
    /holds permissions you do not hold|对方拥有您没有的权限|cannot grant|不能授予/.test(body);

  describe('the matrix: every record-acting route of users and roles', () => {
    it('covers users and roles, and every route of theirs is classified', () => {
      expect(guarded.map((b) => b.def.code).sort()).toEqual(['role', 'user']);
      for (const b of guarded) expect(opsOf(b, postRoutes(b)).unclassified, b.def.code).toEqual([]);
    });

    for (const b of guarded) {
      describe(b.def.code, () => {
        const targetOfAdmin = () => (b.def.code === 'user' ? adminUserId : adminRoleId);
        const snapshot = async (id: string) =>
          b.def.code === 'user' ? { d: await userDetail(id) } : { d: await roleDetail(id), keys: await roleKeys(id) };
        const freshPeer = async () =>
          b.def.code === 'user' ? (await newUser([peerRole])).id : await newRole(admin, await subtreeOf('user'));

        it('a limited user acting on the administrator is refused and nothing changes', async () => {
          const { ops } = opsOf(b, postRoutes(b));
          expect(ops.length).toBeGreaterThan(2);
          for (const op of ops) {
            const before = await snapshot(targetOfAdmin());
            const res = await op.call(limited, targetOfAdmin());
            expect(res.statusCode, `${op.route}: ${res.body}`).toBe(403);
            expect(res.body, op.route).not.toMatch(/"password"/);
            expect(await snapshot(targetOfAdmin()), op.route).toEqual(before);
          }
          // The administrator still signs in with the password it had.
          if (b.def.code === 'user') {
            const info = data<{ account: string }>(await api(admin).get('/api/blade-user/info'));
            expect(info.account).toBe('admin');
          }
        });

        it('a limited user acting on a peer it covers is allowed', async () => {
          for (const op of opsOf(b, postRoutes(b)).ops) {
            const peer = await freshPeer();
            const res = await op.call(limited, peer);
            expect(refused(res.body), `${op.route}: ${res.body}`).toBe(false);
            expect([200, 400], `${op.route}: ${res.body}`).toContain(res.statusCode);
          }
        });

        it('the tenant administrator acts on a peer', async () => {
          for (const op of opsOf(b, postRoutes(b)).ops) {
            const peer = await freshPeer();
            const res = await op.call(admin, peer);
            expect(refused(res.body), `${op.route}: ${res.body}`).toBe(false);
            expect([200, 400], `${op.route}: ${res.body}`).toContain(res.statusCode);
          }
        });
      });
    }
  });

  describe('grants stay within what the granter holds', () => {
    it('role grant: a menu, a data scope or an API scope the granter lacks is refused, for any role and its own', async () => {
      const dataAll = data<{ id: string }>(
        await api(admin).post('/api/blade-system/data-scope/submit', {
          menuId: ids.user,
          resourceCode: 'user',
          scopeName: 'all users',
          scopeType: 1,
        }),
      ).id;
      const apiUsers = data<{ id: string }>(
        await api(admin).post('/api/blade-system/api-scope/submit', {
          menuId: ids.user,
          resourceCode: 'user',
          scopeName: 'user api',
          scopePath: '/api/blade-user/*',
          scopeMethod: '*',
        }),
      ).id;
      const mine = await subtreeOf('user');
      const victim = await newRole(admin, mine);
      const cases: [string, Record<string, unknown>][] = [
        ['menu', { menuIds: [...mine, ids.post] }],
        ['data scope', { menuIds: mine, dataScopeIds: [dataAll] }],
        ['api scope', { menuIds: mine, apiScopeIds: [apiUsers] }],
      ];
      for (const roleId of [victim, limitedRole]) {
        const before = await roleKeys(roleId);
        for (const [name, body] of cases) {
          const res = await api(limited).post('/api/blade-system/role/grant', { roleIds: [roleId], ...body });
          expect(res.statusCode, `${name}: ${res.body}`).toBe(403);
        }
        expect(await roleKeys(roleId)).toEqual(before);
      }
      // The grant tree offers none of them.
      const tree = data<{ dataScope: { id: string }[]; apiScope: { id: string }[] }>(
        await api(limited).get('/api/blade-system/menu/grant-tree'),
      );
      expect(tree.dataScope.map((d) => d.id)).not.toContain(dataAll);
      expect(tree.apiScope.map((d) => d.id)).not.toContain(apiUsers);
      // Within its own holdings the same grant goes through.
      const ok = await api(limited).post('/api/blade-system/role/grant', { roleIds: [victim], menuIds: mine });
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it('a scope roles hold is changed or removed only by the administrator', async () => {
      const scopeMenus = [...(await subtreeOf('user')), ...(await subtreeOf('datascope'))];
      const own = data<Record<string, unknown>>(
        await api(admin).post('/api/blade-system/data-scope/submit', {
          menuId: ids.user,
          resourceCode: 'user',
          scopeName: 'own',
          scopeType: 2,
        }),
      );
      const holder = await newRole(admin, scopeMenus, { data: [String(own.id)] });
      const u = await newUser([holder]);
      const token = await userToken(t, TENANT, u.account, PASSWORD);
      const widen = await api(token, 'en').post('/api/blade-system/data-scope/submit', { ...own, scopeType: 1 });
      expect(widen.statusCode, widen.body).toBe(403);
      expect(widen.json().msg).toMatch(/only the administrator/);
      const drop = await api(token).post(`/api/blade-system/data-scope/remove?ids=${own.id}`);
      expect(drop.statusCode).toBe(403);
      const after = data<Record<string, unknown>>(
        await api(admin).get(`/api/blade-system/data-scope/detail?id=${own.id}`),
      );
      expect(after.scopeType).toBe(2);
      const byAdmin = await api(admin).post('/api/blade-system/data-scope/submit', {
        ...after,
        scopeName: 'own records',
      });
      expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    });

    it('never a broader data scope than the granter’s own', async () => {
      const own = data<{ id: string }>(
        await api(admin).post('/api/blade-system/data-scope/submit', {
          menuId: ids.user,
          resourceCode: 'user',
          scopeName: 'own users',
          scopeType: 2,
        }),
      ).id;
      const menus = [...(await subtreeOf('user')), ...(await subtreeOf('role'))];
      const narrowRole = await newRole(admin, menus, { data: [own] });
      const u = await newUser([narrowRole]);
      const narrow = await userToken(t, TENANT, u.account, PASSWORD);
      const target = await newRole(admin, []);
      const userMenus = await subtreeOf('user');
      // Without a rule the target would fall back to "own department", wider than "own records".
      const wide = await api(narrow, 'en').post('/api/blade-system/role/grant', {
        roleIds: [target],
        menuIds: userMenus,
      });
      expect(wide.statusCode, wide.body).toBe(403);
      expect(wide.json().msg).toMatch(/broader data scope/);
      const same = await api(narrow).post('/api/blade-system/role/grant', {
        roleIds: [target],
        menuIds: userMenus,
        dataScopeIds: [own],
      });
      expect(same.statusCode, same.body).toBe(200);
    });

    it('user roles: nobody hands out a role holding more than they do, to others or themselves', async () => {
      const peer = await newUser([peerRole]);
      for (const [path, body] of [
        ['/api/blade-user/grant', { userIds: [peer.id], roleIds: [adminRoleId] }],
        ['/api/blade-user/grant', { userIds: [limitedUserId], roleIds: [adminRoleId] }],
        ['/api/blade-user/submit', { account: `x${++seq}`, password: PASSWORD, realName: 'x', roleIds: [adminRoleId] }],
        ['/api/blade-user/update', { ...(await userDetail(limitedUserId)), roleIds: [limitedRole, adminRoleId] }],
      ] as const) {
        const res = await api(limited).post(path, body);
        expect(res.statusCode, `${path}: ${res.body}`).toBe(403);
      }
      const roles = (await userDetail(limitedUserId)).roleIds;
      expect(roles).toEqual([limitedRole]);
      expect((await userDetail(peer.id)).roleIds).toEqual([peerRole]);
    });

    it('a user is placed only in the caller’s own department or below — oneself included', async () => {
      const child = data<{ id: string }>(
        await api(admin).post('/api/blade-system/dept/submit', { parentId: rootDept, deptName: `d${++seq}`, sort: 1 }),
      ).id;
      seq += 1;
      const made = await api(admin).post('/api/blade-user/submit', {
        account: `u${seq}`,
        password: PASSWORD,
        realName: 'child',
        deptId: child,
        roleIds: [limitedRole],
      });
      expect(made.statusCode, made.body).toBe(200);
      const childUser = data<{ id: string }>(made).id;
      const token = await userToken(t, TENANT, `u${seq}`, PASSWORD);
      const self = await userDetail(childUser);
      const up = await api(token, 'en').post('/api/blade-user/update', { ...self, deptId: rootDept });
      expect(up.statusCode, up.body).toBe(403);
      expect(up.json().msg).toMatch(/own department or below/);
      expect((await userDetail(childUser)).deptId).toBe(child);
      const stay = await api(token).post('/api/blade-user/update', { ...self, realName: 'renamed' });
      expect(stay.statusCode, stay.body).toBe(200);
    });

    it('top menus: replacing what holds menus beyond the caller is refused', async () => {
      const top = data<{ id: string }>(
        await api(admin).post('/api/blade-system/topmenu/submit', { code: `t${++seq}`, name: 'top', sort: 1 }),
      ).id;
      const g = await api(admin).post('/api/blade-system/topmenu/grant', { topMenuIds: [top], menuIds: [ids.post] });
      expect(g.statusCode, g.body).toBe(200);
      const res = await api(limited).post('/api/blade-system/topmenu/grant', {
        topMenuIds: [top],
        menuIds: [ids.user],
      });
      expect(res.statusCode, res.body).toBe(403);
      const top2 = data<{ id: string }>(
        await api(admin).post('/api/blade-system/topmenu/submit', { code: `t${++seq}`, name: 'top2', sort: 2 }),
      ).id;
      const fine = await api(limited).post('/api/blade-system/topmenu/grant', {
        topMenuIds: [top2],
        menuIds: [ids.user],
      });
      expect(fine.statusCode, fine.body).toBe(200);
    });
  });

  describe('the tenant keeps a working administrator', () => {
    it('the last administrator cannot lose the role, by update or grant; an empty role list is refused', async () => {
      const empty = await api(admin, 'en').post('/api/blade-user/grant', { userIds: [adminUserId], roleIds: [] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().msg).toMatch(/Choose at least one role/);
      const self = await userDetail(adminUserId);
      for (const [path, body] of [
        ['/api/blade-user/update', { ...self, roleIds: [] }],
        ['/api/blade-user/update', { ...self, roleIds: [peerRole] }],
        ['/api/blade-user/grant', { userIds: [adminUserId], roleIds: [peerRole] }],
      ] as const) {
        const res = await api(admin, 'en').post(path, body);
        expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
        expect(res.json().msg).toMatch(/at least one working administrator/);
      }
      expect((await userDetail(adminUserId)).roleIds).toEqual([adminRoleId]);
    });

    it('with a second administrator, the first may step down; the last one then may not be removed', async () => {
      const second = await newUser([adminRoleId]);
      const secondToken = await userToken(t, TENANT, second.account, PASSWORD);
      const away = await api(secondToken).post('/api/blade-user/remove?ids=' + adminUserId);
      expect(away.statusCode, away.body).toBe(200);
      // The one left cannot remove itself, nor be demoted.
      const demote = await api(secondToken, 'en').post('/api/blade-user/grant', {
        userIds: [second.id],
        roleIds: [peerRole],
      });
      expect(demote.statusCode).toBe(400);
      // The platform administrator repairs the tenant: the account admin is back with a one-time password.
      await dbOfTenant(t, TENANT)
        .delete(roleMenu)
        .where(and(eq(roleMenu.tenantId, TENANT), eq(roleMenu.roleId, adminRoleId)));
      t.services.cache.clearAll();
      const byTenantAdmin = await api(secondToken).post('/api/blade-system/tenant/repair-admin', { id: tenantRowId });
      expect(byTenantAdmin.statusCode).toBe(403);
      const repaired = await api(platform).post('/api/blade-system/tenant/repair-admin', { id: tenantRowId });
      expect(repaired.statusCode, repaired.body).toBe(200);
      const { account, password } = data<{ account: string; password: string }>(repaired);
      expect(account).toBe('admin');
      admin = await userToken(t, TENANT, 'admin', password);
      const info = data<{ id: string; roles: string[] }>(await api(admin).get('/api/blade-user/info'));
      adminUserId = info.id;
      expect(info.roles).toContain('administrator');
      const routes = data<unknown[]>(await api(admin).get('/api/blade-system/menu/routes'));
      expect(routes.length).toBeGreaterThan(0);
      const users = await api(admin).get('/api/blade-user/page?current=1&size=10');
      expect(users.statusCode).toBe(200);
    });
  });

  describe('reset-password', () => {
    it('shows the one-time password only to a caller covering the user, and is audited', async () => {
      const before = await userDetail(adminUserId);
      const denied = await api(limited).post('/api/blade-user/reset-password', { userIds: [adminUserId] });
      expect(denied.statusCode).toBe(403);
      expect(denied.body).not.toMatch(/password"/);
      expect(await userDetail(adminUserId)).toEqual(before);
      const peer = await newUser([peerRole]);
      const res = await api(limited).post('/api/blade-user/reset-password', { userIds: [peer.id] });
      expect(res.statusCode, res.body).toBe(200);
      const [{ password }] = data<{ password: string }[]>(res);
      const signed = await loginToken(t, { tenantId: TENANT, username: peer.account, password });
      expect(signed.body.must_change_password).toBe(true);
      const audit = await dbOfTenant(t, TENANT)
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityId, peer.id), eq(auditLog.action, 'reset-password')));
      expect(audit).toHaveLength(1);
      expect(audit[0].userId).toBe(limitedUserId);
      expect(JSON.stringify(audit[0])).not.toContain(password);
      expect(JSON.stringify(audit[0])).not.toContain(md5Hex(password));
    });
  });
}
