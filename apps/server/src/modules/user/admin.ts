import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { passwordPolicyError } from '@atrium/contract';
import type { Db } from '../../db/client.ts';
import { dept, loginFailure, post, role, user, userRole } from '../../db/schema/index.ts';
import { ADMIN_ROLE, deptAndBelow } from '../../platform/access.ts';
import { crudRoutes, idArray, idList, idParam, writeAudit, type Row } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { fieldText, optionalText, requiredText } from '../../platform/fields.ts';
import { requireAuth } from '../../platform/guard.ts';
import { hashPassword, md5Hex, randomPassword } from '../../platform/password.ts';
import { parseDateInput } from '../../platform/paging.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { revokeUserSessions } from '../auth/service.ts';
import { beyondOwn } from '../menu/grants.ts';
import { checkQuota } from '../tenant/service.ts';

const optionalId = z
  .union([idParam, z.literal(''), z.null()])
  .optional()
  .transform((v) => (v === '' ? null : v));
/** Values of the `sex` dictionary (1 男, 2 女, 3 未知). */
const sexText = fieldText('性别取值为 1 男、2 女、3 未知', 'Sex is 1 male, 2 female or 3 unknown');
const body = z.object({
  account: requiredText('请输入登录账号', 'Enter the account', 45).regex(
    /^[A-Za-z0-9_.@-]+$/,
    fieldText('账号只能包含字母、数字和 _ . @ -', 'Letters, digits and _ . @ - only'),
  ),
  /** As typed (a "set" field, api-contract §3); insert only. */
  password: z.string().max(128).optional(),
  name: optionalText(20),
  realName: requiredText('请输入用户姓名', 'Enter the name', 10),
  email: z
    .union([z.email(fieldText('邮箱格式不正确', 'Bad email address')).max(45), z.literal('')])
    .optional()
    .nullable(),
  phone: z
    .union([z.string().regex(/^1[3-9]\d{9}$/, fieldText('手机号码格式不正确', 'Bad phone number')), z.literal('')])
    .optional()
    .nullable(),
  sex: z
    .union([z.coerce.number().int().min(1, sexText).max(3, sexText), z.literal('').transform(() => null), z.null()])
    .optional(),
  birthday: z
    .union([z.string().trim().max(40), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (!v) return v === undefined ? undefined : null;
      const d = parseDateInput(v);
      if (!d) ctx.addIssue({ code: 'custom', message: fieldText('日期格式错误', 'Bad date') });
      return d ?? null;
    }),
  deptId: optionalId,
  postId: optionalId,
  roleIds: idArray.optional(),
  roleId: idArray.optional(),
});
type Body = z.infer<typeof body>;

const texts = {
  passwordRequired: { zh: fieldText('请输入密码', 'Enter the password'), en: 'Enter the password' },
  notSelf: { zh: '不能删除自己', en: 'You cannot remove yourself' },
  notPending: { zh: '只能审核待审核的用户', en: 'Only pending applications can be approved' },
};

/** Users (blade-user): the page with department filter, roles, passwords that are never shown but once. */
export function userAdminRoutes(root: FastifyInstance, s: Services) {
  /** References of a user record: each must be a live row of the caller's tenant (else 404, like any foreign id). */
  async function checkRefs(
    tx: Db,
    auth: AuthContext,
    b: { deptId?: string | null; postId?: string | null; roleIds?: string[] },
  ) {
    const live = (t: typeof dept | typeof post | typeof role, id: string) =>
      tx
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.tenantId, auth.tenantId), eq(t.isDeleted, 0), eq(t.id, id)));
    if (b.deptId && !(await live(dept, b.deptId)).length) throw notFound();
    if (b.postId && !(await live(post, b.postId)).length) throw notFound();
    if (b.roleIds?.length) await checkRoles(tx, auth, b.roleIds);
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

  const rolesOf = (b: Body) => b.roleIds ?? b.roleId;

  const svc = crudRoutes(root, s, {
    entity: 'user',
    table: user,
    base: '/api/blade-user',
    listPath: 'page',
    codes: { view: 'user', add: 'user_add', edit: 'user_edit', remove: 'user_delete' },
    body,
    list: {
      filters: {
        account: { column: user.account, op: 'like' },
        realName: { column: user.realName, op: 'like' },
        name: { column: user.name, op: 'like' },
        phone: { column: user.phone, op: 'like' },
        status: { column: user.status, op: 'eq' },
        userType: { column: user.userType, op: 'eq' },
        postId: { column: user.postId, op: 'eq' },
      },
      sorts: { account: user.account, realName: user.realName, createTime: user.createTime },
      createTime: user.createTime,
    },
    listParams: { deptId: (v, auth) => sql`${user.deptId} in ${deptAndBelow(auth.tenantId, v)}` },
    scope: { code: 'user', owner: user.createUser, dept: user.deptId },
    unique: { user_account_uq: { field: 'account', text: { zh: '账号已存在', en: 'The account already exists' } } },
    present: ({ password: _p, ...row }: Row) => row as Row,
    // Names beside each record, in one query per page (roles, department, post).
    async decorate(tx, auth, rows) {
      const ids = rows.map((r) => String(r.id));
      const extras = await tx
        .select({
          id: user.id,
          roleIds: sql<
            string | null
          >`(select string_agg(${role.id}::text, ',' order by ${role.sort}, ${role.id}) from ${userRole} join ${role} on ${role.id} = ${userRole.roleId} and ${role.isDeleted} = 0 where ${userRole.userId} = ${user.id} and ${userRole.tenantId} = ${auth.tenantId})`,
          roleName: sql<
            string | null
          >`(select string_agg(${role.roleName}, ',' order by ${role.sort}, ${role.id}) from ${userRole} join ${role} on ${role.id} = ${userRole.roleId} and ${role.isDeleted} = 0 where ${userRole.userId} = ${user.id} and ${userRole.tenantId} = ${auth.tenantId})`,
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
      const b = input as Body;
      await checkRefs(tx, auth, { deptId: b.deptId, postId: b.postId, roleIds: rolesOf(b) });
      const strip = { roleIds: undefined, roleId: undefined, password: undefined };
      if (existing) return strip;
      if (!b.password)
        throw badRequest(texts.passwordRequired, [{ field: 'password', message: texts.passwordRequired.zh }]);
      const problem = passwordPolicyError(b.password, b.account);
      if (problem)
        throw new AppError(400, problem, [
          { field: 'password', message: typeof problem === 'string' ? problem : problem.zh },
        ]);
      await checkQuota(tx, auth.tenantId, 1, s.now());
      // Whoever set it knows it: the user chooses their own at first login.
      return { ...strip, password: await hashPassword(md5Hex(b.password)), mustChangePassword: 1, status: 1 };
    },
    async afterSave({ tx, auth, input, row }) {
      const roleIds = rolesOf(input as Body);
      if (roleIds) await replaceRoles(tx, auth, [row.id], [...new Set(roleIds)]);
    },
    async beforeRemove(_tx, ids, auth) {
      if (ids.includes(auth.userId)) throw badRequest(texts.notSelf);
    },
    afterRemove: (_auth, ids) => revokeUserSessions(s, ids),
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['user'];
  /** The users among `ids` the caller may touch (tenant + data scope); any other id → 404 and nothing changes. */
  async function visibleUsers(tx: Db, auth: AuthContext, ids: string[], scope: SQL | undefined) {
    const unique = [...new Set(ids)];
    const rows = await tx
      .select()
      .from(user)
      .where(and(eq(user.tenantId, auth.tenantId), eq(user.isDeleted, 0), inArray(user.id, unique), scope));
    if (rows.length !== unique.length) throw notFound();
    return rows;
  }

  // Submit and update differ only in that update needs an id; both pass the same checks.
  app.post(
    '/api/blade-user/update',
    {
      config: { permission: 'user_edit' },
      schema: { tags, body: body.extend({ id: idParam, version: z.coerce.number().int().positive().optional() }) },
    },
    async (req) => {
      const auth = requireAuth(req);
      return ok(await svc.submit(auth, req.body, req.id), '更新成功');
    },
  );

  app.post(
    '/api/blade-user/update-platform',
    {
      config: { permission: 'user_edit' },
      schema: {
        tags,
        body: z.object({
          userId: idParam,
          userType: z.coerce.number().int().min(1).max(99),
          userExt: z.string().max(4000).optional().nullable(),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const [u] = await visibleUsers(tx, auth, [req.body.userId], scope);
        await tx
          .update(user)
          .set({
            userType: req.body.userType,
            userExt: req.body.userExt ?? null,
            updateUser: auth.userId,
            updateTime: s.now(),
            version: u.version + 1,
          })
          .where(and(eq(user.id, u.id), eq(user.tenantId, auth.tenantId)));
        await writeAudit(
          s,
          tx,
          auth,
          req.id,
          'user',
          'update-platform',
          u.id,
          { userType: u.userType, userExt: u.userExt },
          { userType: req.body.userType, userExt: req.body.userExt },
        );
      });
      return ok(true, '更新成功');
    },
  );

  app.get(
    '/api/blade-user/platform-detail',
    { config: { permission: 'user' }, schema: { tags, querystring: z.object({ id: idParam }) } },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      return ok(
        await withTenant(s.db, auth.tenantId, async (tx) => {
          const [u] = await visibleUsers(tx, auth, [req.query.id], scope);
          return {
            id: u.id,
            tenantId: u.tenantId,
            account: u.account,
            name: u.name,
            realName: u.realName,
            userType: u.userType,
            userExt: u.userExt ?? '',
          };
        }),
      );
    },
  );

  /** A random one-time password per user, shown once; the user must change it at the next login. */
  app.post(
    '/api/blade-user/reset-password',
    { config: { permission: 'user_reset' }, schema: { tags, querystring: z.object({ userIds: idList }) } },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const out = await withTenant(s.db, auth.tenantId, async (tx) => {
        const rows = await visibleUsers(tx, auth, req.query.userIds, scope);
        const result: { userId: string; account: string; password: string }[] = [];
        for (const u of rows) {
          const password = randomPassword(12);
          await tx
            .update(user)
            .set({
              password: await hashPassword(md5Hex(password)),
              mustChangePassword: 1,
              updateUser: auth.userId,
              updateTime: s.now(),
              version: u.version + 1,
            })
            .where(and(eq(user.id, u.id), eq(user.tenantId, auth.tenantId)));
          await writeAudit(s, tx, auth, req.id, 'user', 'reset-password', u.id, null, null);
          result.push({ userId: u.id, account: u.account, password });
        }
        return result;
      });
      await revokeUserSessions(
        s,
        out.map((r) => r.userId).filter((id) => id !== auth.userId),
      );
      return ok(out, '重置成功');
    },
  );

  app.post(
    '/api/blade-user/grant',
    {
      config: { permission: 'user_role' },
      schema: {
        tags,
        body: z.object({ userIds: idArray.pipe(z.array(z.string()).min(1, '请选择用户')), roleIds: idArray }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const users = await visibleUsers(tx, auth, req.body.userIds, scope);
        const roleIds = req.body.roleIds.length ? await checkRoles(tx, auth, req.body.roleIds) : [];
        await replaceRoles(
          tx,
          auth,
          users.map((u) => u.id),
          roleIds,
        );
        for (const u of users) await writeAudit(s, tx, auth, req.id, 'user', 'grant', u.id, null, { roleIds });
      });
      return ok(true, '授权成功');
    },
  );

  /** Approves register-guest applications (status 2 → 1), within the tenant's account quota. */
  app.post(
    '/api/blade-user/approve',
    { config: { permission: 'user_approve' }, schema: { tags, querystring: z.object({ ids: idList }) } },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const rows = await visibleUsers(tx, auth, req.query.ids, scope);
        if (rows.some((u) => u.status !== 2)) throw badRequest(texts.notPending);
        await checkQuota(tx, auth.tenantId, rows.length, s.now());
        await tx
          .update(user)
          .set({ status: 1, updateUser: auth.userId, updateTime: s.now(), version: sql`${user.version} + 1` })
          .where(
            and(
              eq(user.tenantId, auth.tenantId),
              inArray(
                user.id,
                rows.map((u) => u.id),
              ),
            ),
          );
        for (const u of rows)
          await writeAudit(s, tx, auth, req.id, 'user', 'approve', u.id, { status: 2 }, { status: 1 });
      });
      return ok(true, '审核成功');
    },
  );

  /** Ends a login lock (api-contract §3: five failures in ten minutes) by forgetting the failures. */
  app.post(
    '/api/blade-user/unlock',
    { config: { permission: 'user_unlock' }, schema: { tags, querystring: z.object({ userIds: idList }) } },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const rows = await withTenant(s.db, auth.tenantId, (tx) => visibleUsers(tx, auth, req.query.userIds, scope));
      await s.db.delete(loginFailure).where(
        and(
          eq(loginFailure.tenantId, auth.tenantId),
          inArray(
            loginFailure.account,
            rows.map((u) => u.account),
          ),
        ),
      );
      return ok(true, '解锁成功');
    },
  );
}
