import { and, eq, inArray, sql } from 'drizzle-orm';
import { messages, passwordPolicyError } from '@atrium/contract';
import { user as userDef } from '@atrium/contract/resources/system/user';
import type { Db } from '../../db/client.ts';
import { dept, loginFailure, post, role, user, userRole } from '../../db/schema/index.ts';
import { ADMIN_ROLE, deptAndBelow } from '../../platform/access.ts';
import { idParam, type Row } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { hashPassword, md5Hex, randomPassword } from '../../platform/password.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { revokeUserSessions } from '../auth/service.ts';
import { beyondOwn } from '../menu/grants.ts';
import { checkQuota } from '../tenant/service.ts';
import { userTexts as texts } from './messages.ts';
import { selfRoutes } from './self.ts';
import { z } from 'zod';

type Refs = { deptId?: unknown; postId?: unknown; roleIds?: unknown; roleId?: unknown };
const rolesOf = (b: Refs) => (b.roleIds ?? b.roleId) as string[] | null | undefined;

/** Users (blade-user): the page with its department filter, roles, passwords that are shown at most once. */
export default defineModule((app, s) => {
  selfRoutes(app, s);

  /** References of a user record: each must be a live row of the caller's tenant (else 404, like any foreign id). */
  async function checkRefs(tx: Db, auth: AuthContext, b: Refs) {
    const live = (t: typeof dept | typeof post, id: string) =>
      tx
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.tenantId, auth.tenantId), eq(t.isDeleted, 0), eq(t.id, id)));
    if (b.deptId && !(await live(dept, String(b.deptId))).length) throw notFound();
    if (b.postId && !(await live(post, String(b.postId))).length) throw notFound();
    const roles = rolesOf(b);
    if (roles?.length) await checkRoles(tx, auth, roles);
  }

  /** Roles handed to users: the tenant's own, and (unless the caller is the tenant administrator) only roles the caller holds. */
  async function checkRoles(tx: Db, auth: AuthContext, ids: string[]) {
    const unique = [...new Set(ids)];
    const found = await tx
      .select({ id: role.id })
      .from(role)
      .where(and(eq(role.tenantId, auth.tenantId), eq(role.isDeleted, 0), inArray(role.id, unique)));
    if (found.length !== unique.length) throw notFound();
    if (unique.some((r) => !auth.roleIds.includes(r))) {
      const admin =
        auth.roleIds.length &&
        (
          await tx
            .select({ id: role.id })
            .from(role)
            .where(
              and(
                eq(role.tenantId, auth.tenantId),
                eq(role.isDeleted, 0),
                eq(role.roleAlias, ADMIN_ROLE),
                inArray(role.id, auth.roleIds),
              ),
            )
        ).length > 0;
      if (!admin) throw beyondOwn();
    }
    return unique;
  }

  async function replaceRoles(tx: Db, auth: AuthContext, userIds: string[], roleIds: string[]) {
    await tx.delete(userRole).where(and(eq(userRole.tenantId, auth.tenantId), inArray(userRole.userId, userIds)));
    const rows = userIds.flatMap((userId) => roleIds.map((roleId) => ({ userId, roleId, tenantId: auth.tenantId })));
    if (rows.length) await tx.insert(userRole).values(rows);
  }

  const binding = bindResource(userDef, user, {
    scope: { owner: user.createUser, dept: user.deptId },
    listParams: { deptId: (v, auth) => sql`${user.deptId} in ${deptAndBelow(auth.tenantId, v)}` },
    output: {
      code: { type: ['string', 'null'] },
      avatar: { type: ['string', 'null'] },
      oauthId: { type: ['string', 'null'] },
      userExt: { type: ['string', 'null'] },
      mustChangePassword: { type: ['integer', 'null'] },
    },
    // Names beside each record, in one query per page (roles, department, post).
    async decorate(tx, auth, rows) {
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
    async beforeSave({ tx, auth, input, existing }) {
      await checkRefs(tx, auth, input);
      if (existing) return;
      const password = typeof input.password === 'string' ? input.password : '';
      if (!password) throw badRequest(texts.passwordRequired, [{ field: 'password', message: texts.passwordRequired }]);
      const problem = passwordPolicyError(password, String(input.account));
      if (problem) throw new AppError(400, problem, [{ field: 'password', message: problem }]);
      await checkQuota(tx, auth.tenantId, 1, s.now());
      // Whoever set it knows it: the user chooses their own at first login.
      return { password: await hashPassword(md5Hex(password)), mustChangePassword: 1, status: 1 };
    },
    async afterSave({ tx, auth, input, row }) {
      const roleIds = rolesOf(input);
      if (roleIds) await replaceRoles(tx, auth, [row.id], [...new Set(roleIds)]);
    },
    async beforeRemove(_tx, ids, auth) {
      if (ids.includes(auth.userId)) throw badRequest(texts.notSelf);
    },
    afterRemove: (_auth, ids) => revokeUserSessions(s, ids),
    actions: {
      async 'update-platform'({ tx, auth, rows, input }) {
        await tx
          .update(user)
          .set({ userType: Number(input.userType), userExt: (input.userExt as string | null) ?? null })
          .where(and(eq(user.id, rows[0].id), eq(user.tenantId, auth.tenantId)));
        return { changed: true };
      },
      /** A random one-time password per user, shown once; the user must change it at the next login. */
      async 'reset-password'({ tx, auth, rows }) {
        const result: { userId: string; account: string; password: string }[] = [];
        for (const u of rows) {
          const password = randomPassword(12);
          await tx
            .update(user)
            .set({ password: await hashPassword(md5Hex(password)), mustChangePassword: 1 })
            .where(and(eq(user.id, u.id), eq(user.tenantId, auth.tenantId)));
          result.push({ userId: u.id, account: String(u.account), password });
        }
        const others = result.map((r) => r.userId).filter((id) => id !== auth.userId);
        return { data: result, changed: true, after: () => revokeUserSessions(s, others) };
      },
      async grant({ tx, auth, rows, input }) {
        const given = (input.roleIds as string[] | null | undefined) ?? [];
        const roleIds = given.length ? await checkRoles(tx, auth, given) : [];
        await replaceRoles(
          tx,
          auth,
          rows.map((u) => u.id),
          roleIds,
        );
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
