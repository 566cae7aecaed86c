import { and, eq } from 'drizzle-orm';
import { dept, role, tenant, user, userRole } from '../../db/schema/index.ts';
import { newId } from '../../db/ids.ts';
import { AppError, badRequest, notFound, type Text } from '../../platform/errors.ts';
import { hashPassword, md5Hex, verifyPassword } from '../../platform/password.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import { passwordPolicyError } from '@atrium/contract';
import { withTenant } from '../../platform/tenant-db.ts';
import type { Db } from '../../db/client.ts';
import { userTexts } from './messages.ts';

export async function findUser(db: Db, auth: AuthContext) {
  const [u] = await db
    .select()
    .from(user)
    .where(and(eq(user.id, auth.userId), eq(user.tenantId, auth.tenantId), eq(user.isDeleted, 0)));
  if (!u) throw notFound();
  return u;
}

/** The user of docs/system-api.md "Sign-in" "user-info"; never carries the password hash. */
export async function userInfo(s: Services, auth: AuthContext) {
  return withTenant(s.db, auth.tenantId, (tx) => readUserInfo(tx, auth));
}

async function readUserInfo(db: Db, auth: AuthContext) {
  const u = await findUser(db, auth);
  const roles = await db
    .select({ id: role.id, alias: role.roleAlias, name: role.roleName })
    .from(userRole)
    .innerJoin(role, and(eq(role.id, userRole.roleId), eq(role.isDeleted, 0)))
    .where(and(eq(userRole.userId, u.id), eq(userRole.tenantId, u.tenantId)));
  let deptName = '';
  if (u.deptId) {
    const [d] = await db
      .select({ n: dept.deptName })
      .from(dept)
      .where(and(eq(dept.id, u.deptId), eq(dept.tenantId, u.tenantId)));
    deptName = d?.n ?? '';
  }
  const [t] = await db.select({ name: tenant.tenantName }).from(tenant).where(eq(tenant.tenantId, u.tenantId));
  return {
    id: u.id,
    tenantId: u.tenantId,
    tenantName: t?.name ?? '',
    account: u.account,
    name: u.name ?? '',
    realName: u.realName ?? '',
    avatar: u.avatar ?? '',
    email: u.email ?? '',
    phone: u.phone ?? '',
    sex: u.sex,
    deptId: u.deptId ?? '',
    deptName,
    postId: u.postId ?? '',
    roleId: roles.map((r) => r.id).join(','),
    roleName: roles.map((r) => r.name).join(','),
    roles: roles.map((r) => r.alias),
    mustChangePassword: u.mustChangePassword === 1,
  };
}

export type InfoUpdate = { avatar?: string; name?: string; realName?: string; phone?: string; email?: string };

export async function updateInfo(s: Services, auth: AuthContext, patch: InfoUpdate) {
  return withTenant(s.db, auth.tenantId, async (tx) => {
    const u = await findUser(tx, auth);
    await tx
      .update(user)
      .set({
        avatar: patch.avatar ?? u.avatar,
        name: patch.name ?? u.name,
        realName: patch.realName ?? u.realName,
        phone: patch.phone ?? u.phone,
        email: patch.email ?? u.email,
        updateUser: auth.userId,
        updateTime: s.now(),
        version: u.version + 1,
      })
      .where(and(eq(user.id, u.id), eq(user.tenantId, auth.tenantId)));
    return readUserInfo(tx, auth);
  });
}

function policy(password: string, account: string, field: string) {
  const problem: Text | null = passwordPolicyError(password, account);
  if (problem) throw new AppError(400, problem, [{ field, message: problem }]);
}

/** Old password arrives as MD5 (a check), the new one as typed (a set), so the policy can be enforced. */
export async function updatePassword(
  s: Services,
  auth: AuthContext,
  body: { oldPassword: string; newPassword: string; newPassword1: string },
) {
  const u = await withTenant(s.db, auth.tenantId, (tx) => findUser(tx, auth));
  if (body.newPassword !== body.newPassword1)
    throw badRequest(userTexts.mismatch, [{ field: 'newPassword1', message: userTexts.mismatch }]);
  const v = await verifyPassword(body.oldPassword, u.password);
  if (!v.ok)
    throw badRequest(userTexts.oldPasswordWrong, [{ field: 'oldPassword', message: userTexts.oldPasswordWrong }]);
  policy(body.newPassword, u.account, 'newPassword');
  const hash = await hashPassword(md5Hex(body.newPassword));
  await withTenant(s.db, auth.tenantId, (tx) =>
    tx
      .update(user)
      .set({
        password: hash,
        mustChangePassword: 0,
        updateUser: auth.userId,
        updateTime: s.now(),
        version: u.version + 1,
      })
      .where(and(eq(user.id, u.id), eq(user.tenantId, auth.tenantId))),
  );
  // Other sessions of this user end: whoever else held the old password is out.
  await revokeUserSessions(s, [u.id], auth.sid);
  return true;
}

export type GuestApplication = { tenantId: string; name?: string; account: string; password: string; oauthId?: string };

/** A guest registers into a tenant as an application (status 2) an administrator must approve. */
export async function registerGuest(s: Services, body: GuestApplication) {
  const [t] = await s.db
    .select()
    .from(tenant)
    .where(and(eq(tenant.tenantId, body.tenantId), eq(tenant.isDeleted, 0)));
  if (!t || t.status !== 1) throw badRequest(userTexts.noTenant, [{ field: 'tenantId', message: userTexts.noTenant }]);
  if (t.expireTime && t.expireTime.getTime() < s.now().getTime()) throw badRequest(userTexts.tenantExpired);
  policy(body.password, body.account, 'password');
  const now = s.now();
  const hash = await hashPassword(md5Hex(body.password));
  try {
    await withTenant(s.db, t.tenantId, (tx) =>
      tx.insert(user).values({
        id: newId(),
        tenantId: t.tenantId,
        account: body.account,
        // Without a name the account stands in, cut to the columns' widths (name 20, real name 10).
        name: body.name || body.account.slice(0, 20),
        realName: body.name || body.account.slice(0, 10),
        password: hash,
        oauthId: body.oauthId ?? null,
        status: 2,
        createTime: now,
        updateTime: now,
      }),
    );
  } catch (err) {
    // A taken account gets the answer a free one gets (as login does for a wrong password): the registration
    // page must not tell a stranger which accounts exist. Nothing is written; the password was hashed either way.
    if (!isUniqueViolation(err)) throw err;
  }
  return true;
}

export function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    if ((e as { code?: string }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
