import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dept, post, role, userRole } from '../../db/schema/index.ts';
import { deptAndBelow, SCOPE_TYPES } from '../../platform/access.ts';
import type { Row } from '../../platform/crud.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { hashPassword, md5Hex, randomPassword } from '../../platform/password.ts';
import { callerHoldings, requireGrantableRoles } from '../../platform/privilege.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { liveByCodes } from '../region/index.ts';
import { userTexts as texts } from './messages.ts';

/**
 * The rules of user administration (docs/system-api.md "Users", "Nobody gains what they were not given"): functions of
 * a transaction and the caller, which a test calls without the app (test/user-rules.test.ts).
 */

export type OneTimePassword = { password: string; hash: string };

/** Random passwords a person can type, with their hashes (computed concurrently, on libuv's thread pool). */
export const oneTimePasswords = (n: number): Promise<OneTimePassword[]> =>
  Promise.all(
    Array.from({ length: n }, async () => {
      const password = randomPassword(12);
      return { password, hash: await hashPassword(md5Hex(password)) };
    }),
  );

export type Refs = { deptId?: unknown; postId?: unknown; roleIds?: unknown; roleId?: unknown; regionCode?: unknown };
export const rolesOf = (b: Refs) => (b.roleIds ?? b.roleId) as string[] | null | undefined;

/** References of a user record: each must be a live row of the caller's tenant (else 404, like any foreign id). */
export async function checkRefs(tx: Db, auth: AuthContext, b: Refs, existing: Row | null) {
  const live = (t: typeof dept | typeof post, id: string) =>
    tx
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.tenantId, auth.tenantId), eq(t.isDeleted, 0), eq(t.id, id)));
  if (b.deptId && !(await live(dept, String(b.deptId))).length) throw notFound();
  if (b.deptId && String(b.deptId) !== String(existing?.deptId ?? '')) await checkDeptReach(tx, auth, String(b.deptId));
  if (b.postId && !(await live(post, String(b.postId))).length) throw notFound();
  if (b.regionCode && String(b.regionCode) !== String(existing?.regionCode ?? ''))
    await checkRegionReach(tx, auth, String(b.regionCode));
  const roles = rolesOf(b);
  if (roles?.length) await checkRoles(tx, auth, roles);
}

/**
 * Moving a user (oneself included) into a department widens what "own department" rules show: below the
 * administrator and a data scope of "all users", only the caller's own department and those below it.
 */
export async function checkDeptReach(tx: Db, auth: AuthContext, deptId: string) {
  const caller = await callerHoldings(tx, auth);
  if (caller.admin) return;
  if ([...caller.data.values()].some((d) => d.resourceCode === 'user' && d.scopeType === SCOPE_TYPES.all)) return;
  const within =
    auth.deptId &&
    (
      await tx
        .select({ id: dept.id })
        .from(dept)
        .where(and(eq(dept.id, deptId), sql`${dept.id} in ${deptAndBelow(auth.tenantId, auth.deptId)}`))
    ).length > 0;
  if (!within) throw new AppError(403, texts.deptBeyond);
}

/**
 * A user's region widens what "own region and below" rules show: below the administrator and a data scope of "all
 * users", only the caller's own region and those below it (docs/system-api.md "Nobody gains what they were not
 * given").
 */
export async function checkRegionReach(tx: Db, auth: AuthContext, code: string) {
  if (!(await liveByCodes(tx, [code])).has(code))
    throw badRequest(texts.regionUnknown, [{ field: 'regionCode', message: texts.regionUnknown }]);
  const caller = await callerHoldings(tx, auth);
  if (caller.admin) return;
  if ([...caller.data.values()].some((d) => d.resourceCode === 'user' && d.scopeType === SCOPE_TYPES.all)) return;
  if (!auth.regionCode || !code.startsWith(auth.regionCode)) throw new AppError(403, texts.regionBeyond);
}

/** Roles handed to users: the tenant's own, each holding nothing beyond what the caller holds. */
export async function checkRoles(tx: Db, auth: AuthContext, ids: string[]) {
  const unique = [...new Set(ids)];
  const found = await tx
    .select({ id: role.id })
    .from(role)
    .where(and(eq(role.tenantId, auth.tenantId), eq(role.isDeleted, 0), inArray(role.id, unique)));
  if (found.length !== unique.length) throw notFound();
  await requireGrantableRoles(tx, auth, unique);
  return unique;
}

export async function replaceRoles(tx: Db, auth: AuthContext, userIds: string[], roleIds: string[]) {
  await tx.delete(userRole).where(and(eq(userRole.tenantId, auth.tenantId), inArray(userRole.userId, userIds)));
  const rows = userIds.flatMap((userId) => roleIds.map((roleId) => ({ userId, roleId, tenantId: auth.tenantId })));
  if (rows.length) await tx.insert(userRole).values(rows);
}
