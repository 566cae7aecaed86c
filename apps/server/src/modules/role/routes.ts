import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, count, eq, inArray, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import { role, roleMenu, roleScope, user, userRole } from '../../db/schema/index.ts';
import { ADMIN_ROLE } from '../../platform/access.ts';
import { crudRoutes, idArray, idParam, parentParam, writeAudit } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { requiredText } from '../../platform/fields.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { subtree, toTree } from '../../platform/tree.ts';
import { checkMenus, checkScopes, grantableMenus } from '../menu/grants.ts';

const body = z.object({
  parentId: parentParam.default('0'),
  roleName: requiredText('请输入角色名称', 'Enter the role name', 255),
  roleAlias: requiredText('请输入角色别名', 'Enter the role alias', 255).regex(
    /^[A-Za-z0-9_]+$/,
    '角色别名只能包含字母、数字和 _',
  ),
  sort: z.coerce.number().int().min(0).max(999999).default(0),
});

const grantBody = z.object({
  roleIds: idArray.pipe(z.array(z.string()).min(1, '请选择角色')),
  menuIds: idArray.default([]),
  dataScopeIds: idArray.default([]),
  apiScopeIds: idArray.default([]),
});

const texts = {
  reserved: {
    zh: '角色别名 administrator 保留给租户管理员',
    en: 'The alias administrator is reserved for the tenant administrator',
  },
  adminFixed: { zh: '租户管理员角色不能删除或改名', en: 'The tenant administrator role cannot be removed or renamed' },
  inUse: (n: number) => ({ zh: `角色仍有 ${n} 个用户在用，不能删除`, en: `The role is still held by ${n} user(s)` }),
  hasChildren: { zh: '请先删除下级角色', en: 'Remove its child roles first' },
  parentMissing: { zh: '上级角色不存在', en: 'The parent role does not exist' },
  cycle: { zh: '上级角色不能是自己或自己的下级', en: 'A role cannot move below itself' },
};

export function roleRoutes(root: FastifyInstance, s: Services) {
  const clear = (tenantId: string) => s.cache.clearTenant(tenantId);
  crudRoutes(root, s, {
    entity: 'role',
    table: role,
    base: '/api/blade-system/role',
    codes: { view: 'role', add: 'role_add', edit: 'role_edit', remove: 'role_delete' },
    body,
    list: {
      filters: { roleName: { column: role.roleName, op: 'like' }, roleAlias: { column: role.roleAlias, op: 'like' } },
      sorts: { sort: role.sort, roleName: role.roleName, createTime: role.createTime },
      defaultSort: [asc(role.sort), asc(role.id)],
      createTime: role.createTime,
    },
    unique: {
      role_alias_uq: { field: 'roleAlias', text: { zh: '角色别名已存在', en: 'The role alias already exists' } },
    },
    async beforeSave({ tx, auth, input, existing }) {
      if (existing?.roleAlias === ADMIN_ROLE && input.roleAlias !== ADMIN_ROLE) throw badRequest(texts.adminFixed);
      if (input.roleAlias === ADMIN_ROLE && existing?.roleAlias !== ADMIN_ROLE)
        throw badRequest(texts.reserved, [{ field: 'roleAlias', message: texts.reserved.zh }]);
      if (input.parentId !== '0') {
        const [p] = await tx
          .select({ id: role.id })
          .from(role)
          .where(and(eq(role.tenantId, auth.tenantId), eq(role.id, input.parentId), eq(role.isDeleted, 0)));
        if (!p) throw badRequest(texts.parentMissing, [{ field: 'parentId', message: texts.parentMissing.zh }]);
        if (existing) {
          // Walk up from the new parent: meeting the role itself would close a loop.
          const all = await tx
            .select({ id: role.id, parentId: role.parentId })
            .from(role)
            .where(and(eq(role.tenantId, auth.tenantId), eq(role.isDeleted, 0)));
          const parentOf = new Map(all.map((r) => [r.id, r.parentId]));
          for (
            let at: string | undefined = p.id, hops = 0;
            at && at !== '0' && hops <= all.length;
            at = parentOf.get(at), hops++
          ) {
            if (at === existing.id) throw badRequest(texts.cycle, [{ field: 'parentId', message: texts.cycle.zh }]);
          }
        }
      }
    },
    async beforeRemove(tx, ids, auth, rows) {
      if (rows.some((r) => r.roleAlias === ADMIN_ROLE)) throw badRequest(texts.adminFixed);
      const [{ kids }] = await tx
        .select({ kids: count() })
        .from(role)
        .where(
          and(
            eq(role.tenantId, auth.tenantId),
            eq(role.isDeleted, 0),
            inArray(role.parentId, ids),
            notInArray(role.id, ids),
          ),
        );
      if (kids > 0) throw badRequest(texts.hasChildren);
      const [{ n }] = await tx
        .select({ n: count() })
        .from(userRole)
        .innerJoin(user, and(eq(user.id, userRole.userId), eq(user.isDeleted, 0)))
        .where(and(eq(userRole.tenantId, auth.tenantId), inArray(userRole.roleId, ids)));
      if (n > 0) throw badRequest(texts.inUse(n));
    },
    afterWrite: (auth) => clear(auth.tenantId),
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['role'];

  /** Replaces the menus, data scopes and API scopes of the roles, all in one transaction. */
  app.post(
    '/api/blade-system/role/grant',
    { config: { permission: 'role_grant' }, schema: { tags, body: grantBody } },
    async (req) => {
      const auth = requireAuth(req);
      const { roleIds, menuIds, dataScopeIds, apiScopeIds } = req.body;
      const grantable = await grantableMenus(s, auth);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const ids = [...new Set(roleIds)];
        const found = await tx
          .select({ id: role.id })
          .from(role)
          .where(and(eq(role.tenantId, auth.tenantId), eq(role.isDeleted, 0), inArray(role.id, ids)));
        if (found.length !== ids.length) throw notFound();
        const menus = await checkMenus(tx, auth, menuIds, grantable);
        const data = await checkScopes(tx, auth, 'data', dataScopeIds, grantable);
        const apis = await checkScopes(tx, auth, 'api', apiScopeIds, grantable);
        await tx.delete(roleMenu).where(and(eq(roleMenu.tenantId, auth.tenantId), inArray(roleMenu.roleId, ids)));
        await tx.delete(roleScope).where(and(eq(roleScope.tenantId, auth.tenantId), inArray(roleScope.roleId, ids)));
        for (const roleId of ids) {
          if (menus.length)
            await tx.insert(roleMenu).values(menus.map((menuId) => ({ roleId, menuId, tenantId: auth.tenantId })));
          const scopes = [
            ...data.map((scopeId) => ({ scopeId, scopeCategory: 1 })),
            ...apis.map((scopeId) => ({ scopeId, scopeCategory: 2 })),
          ];
          if (scopes.length)
            await tx.insert(roleScope).values(scopes.map((x) => ({ ...x, roleId, tenantId: auth.tenantId })));
          await writeAudit(s, tx, auth, req.id, 'role', 'grant', roleId, null, {
            menuIds: menus,
            dataScopeIds: data,
            apiScopeIds: apis,
          });
        }
      });
      clear(auth.tenantId);
      return ok(true, '授权成功');
    },
  );

  const roleTree = async (tenantId: string) =>
    withTenant(s.db, tenantId, (tx) =>
      tx
        .select({ id: role.id, parentId: role.parentId, roleName: role.roleName, roleAlias: role.roleAlias })
        .from(role)
        .where(and(eq(role.tenantId, tenantId), eq(role.isDeleted, 0)))
        .orderBy(asc(role.sort), asc(role.id)),
    );

  app.get(
    '/api/blade-system/role/tree',
    {
      config: { permission: ['role', 'user'] },
      schema: { tags, querystring: z.object({ tenantId: z.string().max(12).optional() }) },
    },
    async (req) => {
      const rows = await roleTree(requireAuth(req).tenantId);
      return ok(
        toTree(
          rows,
          (r) => r.roleName,
          (r) => ({ roleAlias: r.roleAlias }),
        ),
      );
    },
  );

  // The parent picker of a role: every role but itself and its descendants.
  app.get(
    '/api/blade-system/role/tree-by-id',
    { config: { permission: 'role' }, schema: { tags, querystring: z.object({ roleId: idParam }) } },
    async (req) => {
      const rows = await roleTree(requireAuth(req).tenantId);
      if (!rows.some((r) => r.id === req.query.roleId)) throw notFound();
      const drop = subtree(rows, [req.query.roleId]);
      return ok(
        toTree(
          rows.filter((r) => !drop.has(r.id)),
          (r) => r.roleName,
          (r) => ({ roleAlias: r.roleAlias }),
        ),
      );
    },
  );
}
