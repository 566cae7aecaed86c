import { and, eq, inArray, sql } from 'drizzle-orm';
import { passwordPolicyError } from '@atrium/contract';
import { user as userDef } from '@atrium/contract/resources/system/user';
import { dept, loginFailure, post, role, user, userRole } from '../../db/schema/index.ts';
import { deptAndBelow } from '../../platform/access.ts';
import type { Row } from '../../platform/crud.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { hashPassword, md5Hex } from '../../platform/password.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { requireAdminRemains, requireCoversUsers } from '../../platform/privilege.ts';
import type { Services } from '../../platform/services.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import { checkQuota } from '../tenant/index.ts';
import { userTexts as texts } from './messages.ts';
import { adminRoutes } from './routes/admin.ts';
import { selfRoutes } from './routes/self.ts';
import { checkRefs, checkRoles, oneTimePasswords, replaceRoles, rolesOf, type OneTimePassword } from './rules.ts';

/** The binding of the definition: references and reach checked, roles, passwords that are shown at most once. */
function userBinding(s: Services) {
  return bindResource(userDef, user, {
    scope: { owner: user.createUser, dept: user.deptId },
    listParams: { deptId: ({ value, auth }) => sql`${user.deptId} in ${deptAndBelow(auth.tenantId, value)}` },
    output: {
      code: { type: ['string', 'null'] },
      avatar: { type: ['string', 'null'] },
      oauthId: { type: ['string', 'null'] },
      userExt: { type: ['string', 'null'] },
      mustChangePassword: { type: ['integer', 'null'] },
    },
    // Names beside each record, in one query per page (roles, department, post).
    async decorate({ tx, auth, rows }) {
      const ids = rows.map((r) => String(r.id));
      const roleList = (col: typeof role.id | typeof role.roleName) =>
        sql<string | null>`(select string_agg(${col}::text, ',' order by ${role.sort}, ${role.id}) from ${userRole}
        join ${role} on ${role.id} = ${userRole.roleId} and ${role.isDeleted} = 0
        where ${userRole.userId} = ${user.id} and ${userRole.tenantId} = ${auth.tenantId})`;
      const extras = await tx
        .select({
          id: user.id,
          roleIds: roleList(role.id),
          roleName: roleList(role.roleName),
          deptName: dept.deptName,
          postName: post.postName,
        })
        .from(user)
        .leftJoin(dept, and(eq(dept.id, user.deptId), eq(dept.tenantId, auth.tenantId)))
        .leftJoin(post, and(eq(post.id, user.postId), eq(post.tenantId, auth.tenantId)))
        .where(and(eq(user.tenantId, auth.tenantId), inArray(user.id, ids)));
      const byId = new Map(extras.map((e) => [e.id, e]));
      return rows.map((r) => {
        const e = byId.get(String(r.id));
        const roleIds = e?.roleIds ? e.roleIds.split(',') : [];
        return {
          ...r,
          roleIds,
          roleId: roleIds.join(','),
          roleName: e?.roleName ?? '',
          deptName: e?.deptName ?? '',
          postName: e?.postName ?? '',
        };
      });
    },
    // A new user's password is hashed before the transaction opens (scrypt is a tenth of a second of CPU; no
    // connection waits on it) — only one the policy accepts: beforeSave answers the others in its usual order.
    async prepareSave({ input, id }) {
      const password = typeof input.password === 'string' ? input.password : '';
      if (id || !password || passwordPolicyError(password, String(input.account))) return;
      return { passwordHash: await hashPassword(md5Hex(password)) };
    },
    async beforeSave({ tx, auth, input, existing, state }) {
      await checkRefs(tx, auth, input, existing);
      if (existing) return;
      const password = typeof input.password === 'string' ? input.password : '';
      if (!password) throw badRequest(texts.passwordRequired, [{ field: 'password', message: texts.passwordRequired }]);
      const problem = passwordPolicyError(password, String(input.account));
      if (problem) throw new AppError(400, problem, [{ field: 'password', message: problem }]);
      await checkQuota(tx, auth.tenantId, 1, s.now());
      if (typeof state.passwordHash !== 'string') throw new Error('user: the password was not hashed before the save');
      // Whoever set it knows it: the user chooses their own at first login.
      return { password: state.passwordHash, mustChangePassword: 1, status: 1 };
    },
    async afterSave({ tx, auth, input, row, existing }) {
      const roleIds = rolesOf(input);
      if (roleIds) await replaceRoles(tx, auth, [row.id], [...new Set(roleIds)]);
      if (roleIds && existing) await requireAdminRemains(tx, auth.tenantId);
    },
    // Update, removal and every action: only on users whose roles hold nothing beyond the caller's.
    guard: ({ tx, auth, rows }) =>
      requireCoversUsers(
        tx,
        auth,
        rows.map((r) => r.id),
      ),
    async beforeRemove({ tx, ids, auth }) {
      if (ids.includes(auth.userId)) throw badRequest(texts.notSelf);
      await requireAdminRemains(tx, auth.tenantId, ids);
    },
    afterRemove: ({ ids }) => revokeUserSessions(s, ids),
    // One random password per user named, hashed before the action's transaction (the ids are checked inside it).
    prepare: { 'reset-password': ({ targets }) => oneTimePasswords(targets.length) },
    actions: {
      async 'update-platform'({ tx, auth, rows, input }) {
        await tx
          .update(user)
          .set({ userType: Number(input.userType), userExt: (input.userExt as string | null) ?? null })
          .where(and(eq(user.id, rows[0].id), eq(user.tenantId, auth.tenantId)));
        return { changed: true };
      },
      /** A random one-time password per user, shown once; the user must change it at the next login. */
      async 'reset-password'({ tx, auth, rows, prepared }) {
        const fresh = prepared as OneTimePassword[];
        const result: { userId: string; account: string; password: string }[] = [];
        for (const [i, u] of rows.entries()) {
          const { password, hash } = fresh[i];
          await tx
            .update(user)
            .set({ password: hash, mustChangePassword: 1 })
            .where(and(eq(user.id, u.id), eq(user.tenantId, auth.tenantId)));
          result.push({ userId: u.id, account: String(u.account), password });
        }
        const others = result.map((r) => r.userId).filter((id) => id !== auth.userId);
        return { data: result, changed: true, after: () => revokeUserSessions(s, others) };
      },
      async grant({ tx, auth, rows, input }) {
        const roleIds = await checkRoles(tx, auth, (input.roleIds as string[] | null | undefined) ?? []);
        await replaceRoles(
          tx,
          auth,
          rows.map((u) => u.id),
          roleIds,
        );
        await requireAdminRemains(tx, auth.tenantId);
      },
      /** Register-guest applications (status 2 → 1), within the tenant's account quota. */
      async approve({ tx, auth, rows }) {
        await checkQuota(tx, auth.tenantId, rows.length, s.now());
      },
      /** Ends a login lock (five failures in ten minutes) by forgetting the failures. */
      async unlock({ tx, auth, rows }) {
        const accounts = rows.map((u: Row) => String(u.account));
        await tx
          .delete(loginFailure)
          .where(and(eq(loginFailure.tenantId, auth.tenantId), inArray(loginFailure.account, accounts)));
      },
    },
  });
}

/**
 * Users (blade-user): the definition's routes with the page's department filter, roles and one-time passwords, then
 * the user's own calls (routes/self.ts) and the administration's own (routes/admin.ts); rules in rules.ts.
 */
export default defineModule(async (app, s) => {
  const binding = userBinding(s);
  const svc = resourceRoutes(app, s, binding);
  await app.register(selfRoutes, { s });
  await app.register(adminRoutes, { prefix: userDef.base, s, svc, binding });
});
