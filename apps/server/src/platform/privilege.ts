import { and, count, eq, inArray, notInArray } from 'drizzle-orm';
import { fill, type Msg } from '@atrium/contract';
import type { Db } from '../db/client.ts';
import { apiScope, dataScope, menu, role, roleMenu, roleScope, user, userRole } from '../db/schema/index.ts';
import { ADMIN_ROLE, PLATFORM_TENANT, SCOPE_TYPES } from './access.ts';
import { AppError, badRequest } from './errors.ts';
import { privilegeTexts } from './messages.ts';

export { privilegeTexts };
import type { AuthContext } from './tokens.ts';

/**
 * No escalation inside a tenant (docs/system-api.md "Permissions", "Nobody gains what they were not given"):
 * what a set of roles holds, whether a caller's holdings cover someone else's, and the rule that a tenant always
 * keeps a working administrator. Every check runs inside the caller's transaction on rows it has locked.
 */

export type DataRule = { id: string; resourceCode: string; scopeType: number; menuId: string };

/** What a set of roles holds: the administrator flag, menus and buttons, data scopes, API scopes. */
export type Holdings = {
  admin: boolean;
  menus: Set<string>;
  data: Map<string, DataRule>;
  api: Set<string>;
};

/** The holdings of roles (live ones of the tenant), read in the caller's transaction. */
export async function holdingsOfRoles(tx: Db, tenantId: string, roleIds: string[]): Promise<Holdings> {
  const out: Holdings = { admin: false, menus: new Set(), data: new Map(), api: new Set() };
  const ids = [...new Set(roleIds)];
  if (!ids.length) return out;
  const live = await tx
    .select({ id: role.id, alias: role.roleAlias })
    .from(role)
    .where(and(eq(role.tenantId, tenantId), eq(role.isDeleted, 0), inArray(role.id, ids)));
  if (!live.length) return out;
  out.admin = live.some((r) => r.alias === ADMIN_ROLE);
  const liveIds = live.map((r) => r.id);
  const menus = await tx
    .selectDistinct({ id: roleMenu.menuId })
    .from(roleMenu)
    .innerJoin(menu, and(eq(menu.id, roleMenu.menuId), eq(menu.isDeleted, 0)))
    .where(and(eq(roleMenu.tenantId, tenantId), inArray(roleMenu.roleId, liveIds)));
  for (const m of menus) out.menus.add(m.id);
  const data = await tx
    .selectDistinct({
      id: dataScope.id,
      resourceCode: dataScope.resourceCode,
      scopeType: dataScope.scopeType,
      menuId: dataScope.menuId,
    })
    .from(roleScope)
    .innerJoin(dataScope, and(eq(dataScope.id, roleScope.scopeId), eq(dataScope.isDeleted, 0)))
    .where(and(eq(roleScope.tenantId, tenantId), eq(roleScope.scopeCategory, 1), inArray(roleScope.roleId, liveIds)));
  for (const d of data) out.data.set(d.id, d);
  const api = await tx
    .selectDistinct({ id: apiScope.id })
    .from(roleScope)
    .innerJoin(apiScope, and(eq(apiScope.id, roleScope.scopeId), eq(apiScope.isDeleted, 0)))
    .where(and(eq(roleScope.tenantId, tenantId), eq(roleScope.scopeCategory, 2), inArray(roleScope.roleId, liveIds)));
  for (const a of api) out.api.add(a.id);
  return out;
}

/** The live roles of users (the link table), per user. */
export async function rolesOfUsers(tx: Db, tenantId: string, userIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return out;
  const rows = await tx
    .select({ userId: userRole.userId, roleId: userRole.roleId })
    .from(userRole)
    .where(and(eq(userRole.tenantId, tenantId), inArray(userRole.userId, userIds)));
  for (const r of rows) out.get(r.userId)?.push(r.roleId);
  return out;
}

/** The caller's holdings; the platform administrator holds everything of every tenant it acts in. */
export async function callerHoldings(tx: Db, auth: AuthContext): Promise<Holdings & { platform: boolean }> {
  const h = await holdingsOfRoles(tx, auth.tenantId, auth.roleIds);
  return { ...h, platform: h.admin && auth.tenantId === PLATFORM_TENANT };
}

const BROAD = new Set<number>([SCOPE_TYPES.all, SCOPE_TYPES.ownDept, SCOPE_TYPES.ownDeptAndBelow]);

/**
 * The first thing `wanted` holds beyond `caller`, or null when the caller covers it. Scopes compare by id (a rule
 * the caller holds); a resource left without a rule falls back to "own department", which is broader than a
 * caller whose every rule on that resource is narrower ("own records", a custom list) — so that counts too.
 */
export function beyond(
  caller: Holdings,
  wanted: { admin?: boolean; menus: Iterable<string>; data: Iterable<DataRule>; api: Iterable<string> },
): Msg | null {
  if (caller.admin) return null;
  if (wanted.admin) return privilegeTexts.beyondOwn;
  const menus = new Set(wanted.menus);
  for (const m of menus) if (!caller.menus.has(m)) return privilegeTexts.beyondOwn;
  const data = [...wanted.data];
  for (const d of data) if (!caller.data.has(d.id)) return privilegeTexts.beyondOwn;
  for (const a of wanted.api) if (!caller.api.has(a)) return privilegeTexts.beyondOwn;
  // Resources on which every rule of the caller is narrower than the default, with the menus those rules sit on.
  const byResource = new Map<string, { narrow: boolean; menus: Set<string> }>();
  for (const d of caller.data.values()) {
    const e = byResource.get(d.resourceCode) ?? { narrow: true, menus: new Set<string>() };
    if (BROAD.has(d.scopeType)) e.narrow = false;
    e.menus.add(d.menuId);
    byResource.set(d.resourceCode, e);
  }
  const ruled = new Set(data.map((d) => d.resourceCode));
  for (const [resource, e] of byResource) {
    if (!e.narrow || ruled.has(resource)) continue;
    if ([...e.menus].some((m) => menus.has(m))) return fill(privilegeTexts.broaderData, { resource });
  }
  return null;
}

/** 403: the target (a user, a role, a top menu) holds what the caller does not. */
export const notCovered = (what: Msg) =>
  new AppError(403, {
    zh: fill(privilegeTexts.notCovered, { what: what.zh }).zh,
    en: fill(privilegeTexts.notCovered, { what: what.en }).en,
  });

/** 403 unless the caller covers everything each target holds. */
export function requireCovers(caller: Holdings, targets: Holdings[], what: Msg): void {
  for (const t of targets) {
    if (beyond(caller, { admin: t.admin, menus: t.menus, data: t.data.values(), api: t.api })) {
      throw notCovered(what);
    }
  }
}

/** The caller acts on users: their roles' holdings must be covered. */
export async function requireCoversUsers(tx: Db, auth: AuthContext, userIds: string[]): Promise<void> {
  const caller = await callerHoldings(tx, auth);
  if (caller.admin) return;
  const roles = await rolesOfUsers(tx, auth.tenantId, userIds);
  const targets = await Promise.all([...roles.values()].map((r) => holdingsOfRoles(tx, auth.tenantId, r)));
  requireCovers(caller, targets, privilegeTexts.user);
}

/** The caller hands out roles (to users): each role's holdings must be within the caller's. */
export async function requireGrantableRoles(tx: Db, auth: AuthContext, roleIds: string[]): Promise<void> {
  const caller = await callerHoldings(tx, auth);
  if (caller.admin) return;
  for (const id of new Set(roleIds)) {
    const h = await holdingsOfRoles(tx, auth.tenantId, [id]);
    const problem = beyond(caller, { admin: h.admin, menus: h.menus, data: h.data.values(), api: h.api });
    if (problem) throw new AppError(403, problem);
  }
}

/**
 * After a write that may take the administrator role or the account away (roles replaced, users removed or
 * disabled), inside the same transaction: at least one live, enabled user must still hold the tenant's
 * administrator role, else the whole write is refused.
 */
export async function requireAdminRemains(tx: Db, tenantId: string, removing: string[] = []): Promise<void> {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(userRole)
    .innerJoin(role, and(eq(role.id, userRole.roleId), eq(role.isDeleted, 0), eq(role.roleAlias, ADMIN_ROLE)))
    .innerJoin(user, and(eq(user.id, userRole.userId), eq(user.isDeleted, 0), eq(user.status, 1)))
    .where(
      and(
        eq(userRole.tenantId, tenantId),
        eq(role.tenantId, tenantId),
        removing.length ? notInArray(user.id, removing) : undefined,
      ),
    );
  if (n === 0) throw badRequest(privilegeTexts.lastAdmin);
}

/** Whether any of the roles is the tenant's administrator role. */
export async function includesAdminRole(tx: Db, tenantId: string, roleIds: string[]): Promise<boolean> {
  if (!roleIds.length) return false;
  const rows = await tx
    .select({ id: role.id })
    .from(role)
    .where(
      and(
        eq(role.tenantId, tenantId),
        eq(role.isDeleted, 0),
        eq(role.roleAlias, ADMIN_ROLE),
        inArray(role.id, roleIds),
      ),
    );
  return rows.length > 0;
}
