// A provisioned tenant whose administrator makes roles and members through one instance's API: the fixture of the
// tests that change grants on one server and watch the next request on another (live.test.ts, live-guess.test.ts).
import { and, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { client, provisionedTenant, userToken, type TestApp } from './harness.ts';
import { menu } from '../src/db/schema/index.ts';

/** Ids of platform menus by code. */
export const menuIds = async (t: TestApp, codes: string[]) =>
  (
    await t.services.db
      .select({ id: menu.id })
      .from(menu)
      .where(and(inArray(menu.code, codes), eq(menu.tenantId, '000000')))
  ).map((m) => m.id);

/** The tenant `tenantId` provisioned on `t` by the platform administrator, with helpers acting as its administrator. */
export async function grantingTenant(t: TestApp, platformToken: string, tenantId: string, password: string) {
  const admin = await provisionedTenant(t, platformToken, tenantId);
  const api = client(t, admin.token);
  const ok = async (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(200);
    return JSON.parse(res.body).data;
  };
  const role = async (alias: string, grant: { menus?: string[]; dataScopeIds?: string[]; apiScopeIds?: string[] }) => {
    const r = await ok(await api.post('/api/blade-system/role/submit', { roleName: alias, roleAlias: alias }));
    await ok(
      await api.post('/api/blade-system/role/grant', {
        roleIds: [r.id],
        menuIds: await menuIds(t, grant.menus ?? []),
        dataScopeIds: grant.dataScopeIds ?? [],
        apiScopeIds: grant.apiScopeIds ?? [],
      }),
    );
    return r.id as string;
  };
  /** A user holding `roleIds`, logged in on `t` (the token is valid on every instance). */
  const member = async (account: string, roleIds: string[]) => {
    const u = await ok(await api.post('/api/blade-user/submit', { account, realName: account, password, roleIds }));
    return { id: u.id as string, token: await userToken(t, tenantId, account, password) };
  };
  return { admin, api, ok, role, member };
}
