import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { system } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { role as roleDef } from '@atrium/contract/resources/system/role';
import { dataScope, role, roleMenu, roleScope, user, userRole } from '../../db/schema/index.ts';
import { ADMIN_ROLE } from '../../platform/access.ts';
import { fromContract } from '../../platform/contract-route.ts';
import { ok } from '../../platform/envelope.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { beyond, callerHoldings, holdingsOfRoles, privilegeTexts, requireCovers } from '../../platform/privilege.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { subtree, toTree } from '../../platform/tree.ts';
import { checkMenus, checkScopes, grantableMenus } from '../menu/index.ts';
import { roleTexts as texts } from './messages.ts';

/** Roles: the tree rules come from the definition; the administrator role is fixed; grants replace in one go. */
export default defineModule((root, s) => {
  const ids = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);
  resourceRoutes(
    root,
    s,
    bindResource(roleDef, role, {
      async beforeSave({ input, existing }) {
        if (existing?.roleAlias === ADMIN_ROLE && input.roleAlias !== ADMIN_ROLE) throw badRequest(texts.adminFixed);
        if (input.roleAlias === ADMIN_ROLE && existing?.roleAlias !== ADMIN_ROLE)
          throw badRequest(texts.reserved, [{ field: 'roleAlias', message: texts.reserved }]);
      },
      async beforeRemove({ tx, ids: roleIds, auth, rows }) {
        if (rows.some((r) => r.roleAlias === ADMIN_ROLE)) throw badRequest(texts.adminFixed);
        const [{ n }] = await tx
          .select({ n: count() })
          .from(userRole)
          .innerJoin(user, and(eq(user.id, userRole.userId), eq(user.isDeleted, 0)))
          .where(and(eq(userRole.tenantId, auth.tenantId), inArray(userRole.roleId, roleIds)));
        if (n > 0) throw badRequest(texts.inUse(n));
      },
      // Update, removal, grant: only roles holding nothing beyond the caller; the administrator role's grants are fixed.
      async guard({ tx, auth, rows, op }) {
        if (op === 'grant' && rows.some((r) => r.roleAlias === ADMIN_ROLE))
          throw new AppError(403, privilegeTexts.adminRoleFixed);
        const caller = await callerHoldings(tx, auth);
        if (caller.admin) return;
        const targets = await Promise.all(rows.map((r) => holdingsOfRoles(tx, auth.tenantId, [r.id])));
        requireCovers(caller, targets, privilegeTexts.role);
      },
      prepare: { grant: ({ auth }) => grantableMenus(s, auth) },
      actions: {
        /** Replaces the menus, data scopes and API scopes of the roles (locked by the action), in one transaction. */
        async grant({ tx, auth, rows, input, prepared }) {
          const grantable = prepared as Awaited<ReturnType<typeof grantableMenus>>;
          const menus = await checkMenus(tx, auth, ids(input.menuIds), grantable);
          const data = await checkScopes(tx, auth, 'data', ids(input.dataScopeIds), grantable);
          const apis = await checkScopes(tx, auth, 'api', ids(input.apiScopeIds), grantable);
          // Within what the caller holds: menus, the very scopes, and no broader data scope than their own.
          const caller = await callerHoldings(tx, auth);
          const rules = data.length
            ? await tx
                .select({
                  id: dataScope.id,
                  resourceCode: dataScope.resourceCode,
                  scopeType: dataScope.scopeType,
                  menuId: dataScope.menuId,
                })
                .from(dataScope)
                .where(and(eq(dataScope.tenantId, auth.tenantId), inArray(dataScope.id, data)))
            : [];
          const problem = beyond(caller, { menus, data: rules, api: apis });
          if (problem) throw new AppError(403, problem);
          const roleIds = rows.map((r) => r.id);
          await tx.delete(roleMenu).where(and(eq(roleMenu.tenantId, auth.tenantId), inArray(roleMenu.roleId, roleIds)));
          await tx
            .delete(roleScope)
            .where(and(eq(roleScope.tenantId, auth.tenantId), inArray(roleScope.roleId, roleIds)));
          for (const roleId of roleIds) {
            if (menus.length)
              await tx.insert(roleMenu).values(menus.map((menuId) => ({ roleId, menuId, tenantId: auth.tenantId })));
            const scopes = [
              ...data.map((scopeId) => ({ scopeId, scopeCategory: 1 })),
              ...apis.map((scopeId) => ({ scopeId, scopeCategory: 2 })),
            ];
            if (scopes.length)
              await tx.insert(roleScope).values(scopes.map((x) => ({ ...x, roleId, tenantId: auth.tenantId })));
          }
        },
      },
    }),
  );

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['role'];

  const roleTree = async (tenantId: string) =>
    withTenant(s.db, tenantId, (tx) =>
      tx
        .select({ id: role.id, parentId: role.parentId, roleName: role.roleName, roleAlias: role.roleAlias })
        .from(role)
        .where(and(eq(role.tenantId, tenantId), eq(role.isDeleted, 0)))
        .orderBy(asc(role.sort), asc(role.id)),
    );

  app.get(
    `${roleDef.base}/tree`,
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
  app.route({
    ...fromContract(system.roleTreeById, apiSchemas.system.roleTreeById, tags),
    handler: async (req) => {
      const { roleId } = req.query;
      const rows = await roleTree(requireAuth(req).tenantId);
      if (!rows.some((r) => r.id === roleId)) throw notFound();
      const drop = subtree(rows, [roleId]);
      return ok(
        toTree(
          rows.filter((r) => !drop.has(r.id)),
          (r) => r.roleName,
          (r) => ({ roleAlias: r.roleAlias }),
        ),
      );
    },
  });
});
