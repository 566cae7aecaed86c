import { and, eq, inArray, sql } from 'drizzle-orm';
import { messages, passwordPolicyError } from '@atrium/contract';
import { user as userDef } from '@atrium/contract/resources/system/user';
import type { Db } from '../../db/client.ts';
import { dept, loginFailure, post, role, user, userRole } from '../../db/schema/index.ts';
import { deptAndBelow, SCOPE_TYPES } from '../../platform/access.ts';
import { idParam, type Row } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { hashPassword, md5Hex, randomPassword } from '../../platform/password.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import {
  callerHoldings,
  requireAdminRemains,
  requireCoversUsers,
  requireGrantableRoles,
} from '../../platform/privilege.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import { checkQuota } from '../tenant/index.ts';
import { userTexts as texts } from './messages.ts';
import { selfRoutes } from './self.ts';
import { liveByCodes } from '../region/index.ts';
import { z } from 'zod';

type OneTimePassword = { password: string; hash: string };

/** Random passwords a person can type, with their hashes (computed concurrently, on libuv's thread pool). */
const oneTimePasswords = (n: number): Promise<OneTimePassword[]> =>
  Promise.all(
    Array.from({ length: n }, async () => {
      const password = randomPassword(12);
      return { password, hash: await hashPassword(md5Hex(password)) };
    }),
  );

type Refs = { deptId?: unknown; postId?: unknown; roleIds?: unknown; roleId?: unknown; regionCode?: unknown };
const rolesOf = (b: Refs) => (b.roleIds ?? b.roleId) as string[] | null | undefined;

/** Users (blade-user): the page with its department filter, roles, passwords that are shown at most once. */
export default defineModule((app, s) => {
  selfRoutes(app, s);

  /** References of a user record: each must be a live row of the caller's tenant (else 404, like any foreign id). */
  async function checkRefs(tx: Db, auth: AuthContext, b: Refs, existing: Row | null) {
    const live = (t: typeof dept | typeof post, id: string) =>
      tx
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.tenantId, auth.tenantId), eq(t.isDeleted, 0), eq(t.id, id)));
    if (b.deptId && !(await live(dept, String(b.deptId))).length) throw notFound();
    if (b.deptId && String(b.deptId) !== String(existing?.deptId ?? ''))
      await checkDeptReach(tx, auth, String(b.deptId));
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
  async function checkDeptReach(tx: Db, auth: AuthContext, deptId: string) {
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
  async function checkRegionReach(tx: Db, auth: AuthContext, code: string) {
    if (!(await liveByCodes(tx, [code])).has(code))
      throw badRequest(texts.regionUnknown, [{ field: 'regionCode', message: texts.regionUnknown }]);
    const caller = await callerHoldings(tx, auth);
    if (caller.admin) return;
    if ([...caller.data.values()].some((d) => d.resourceCode === 'user' && d.scopeType === SCOPE_TYPES.all)) return;
    if (!auth.regionCode || !code.startsWith(auth.regionCode)) throw new AppError(403, texts.regionBeyond);
  }

  /** Roles handed to users: the tenant's own, each holding nothing beyond what the caller holds. */
  async function checkRoles(tx: Db, auth: AuthContext, ids: string[]) {
    const unique = [...new Set(ids)];
    const found = await tx
      .select({ id: role.id })
      .from(role)
      .where(and(eq(role.tenantId, auth.tenantId), eq(role.isDeleted, 0), inArray(role.id, unique)));
    if (found.length !== unique.length) throw notFound();
    await requireGrantableRoles(tx, auth, unique);
    return unique;
  }

  async function replaceRoles(tx: Db, auth: AuthContext, userIds: string[], roleIds: string[]) {
    await tx.delete(userRole).where(and(eq(userRole.tenantId, auth.tenantId), inArray(userRole.userId, userIds)));
    const rows = userIds.flatMap((userId) => roleIds.map((roleId) => ({ userId, roleId, tenantId: auth.tenantId })));
    if (rows.length) await tx.insert(userRole).values(rows);
  }

  const binding = bindResource(userDef, user, {
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
  const svc = resourceRoutes(app, s, binding);

  // Submit and update differ only in that update needs an id; both pass the same checks.
  app.post(
    '/api/blade-user/update',
    {
      config: { permission: 'user_edit', labels: binding.spec.labels },
      schema: {
        tags: ['user'],
        body: binding.spec.body.extend({ id: idParam, version: z.coerce.number().int().positive().optional() }),
      },
    },
    async (req) => {
      const body = req.body as Record<string, unknown> & { id: string; version?: number };
      return ok(await svc.submit(requireAuth(req), body, req.id), messages.updated);
    },
  );

  app.get(
    '/api/blade-user/platform-detail',
    { config: { permission: 'user' }, schema: { tags: ['user'], querystring: z.object({ id: idParam }) } },
    async (req) => {
      const auth = requireAuth(req);
      const { id } = req.query as { id: string };
      const scope = await svc.scopeOf(auth);
      const [u] = await withTenant(s.db, auth.tenantId, (tx) =>
        tx
          .select()
          .from(user)
          .where(and(eq(user.tenantId, auth.tenantId), eq(user.isDeleted, 0), eq(user.id, id), scope)),
      );
      if (!u) throw notFound();
      return ok({
        id: u.id,
        tenantId: u.tenantId,
        account: u.account,
        name: u.name,
        realName: u.realName,
        userType: u.userType,
        userExt: u.userExt ?? '',
      });
    },
  );
});
