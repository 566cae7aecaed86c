import type { FastifyInstance } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { apiScope, dataScope, roleScope } from '../../db/schema/index.ts';
import { scopeResources, SCOPE_TYPES } from '../../platform/access.ts';
import { crudRoutes, idParam } from '../../platform/crud.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { fieldText, optionalText, requiredText } from '../../platform/fields.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { inArray } from 'drizzle-orm';
import { menu } from '../../db/schema/index.ts';
import { visibleMenu } from '../menu/grants.ts';

const common = {
  menuId: idParam,
  resourceCode: requiredText('请输入资源编号', 'Enter the resource code', 64).regex(
    /^[A-Za-z0-9_]+$/,
    fieldText('资源编号只能包含字母、数字和 _', 'Letters, digits and _ only'),
  ),
  scopeName: requiredText('请输入权限名称', 'Enter the scope name', 255),
  remark: optionalText(255),
};

const dataBody = z.object({
  ...common,
  scopeType: z.coerce
    .number({ error: fieldText('请选择权限类型', 'Choose the scope type') })
    .int()
    .min(1)
    .max(5),
  scopeColumn: z.string().trim().max(64).optional().nullable(),
  scopeValue: z.string().trim().max(2000).optional().nullable(),
});

const apiBody = z.object({
  ...common,
  scopePath: requiredText('请输入接口地址', 'Enter the API path', 255).regex(
    /^\/api\/[A-Za-z0-9_\-/.]*\*?$/,
    fieldText('接口地址须以 /api/ 开头，只能以 * 结尾通配', 'The path starts with /api/ and may end with *'),
  ),
  scopeMethod: z.enum(['GET', 'POST', '*']).default('*'),
});

async function checkMenu(tx: Db, auth: AuthContext, menuId: string) {
  const [m] = await tx
    .select({ id: menu.id })
    .from(menu)
    .where(and(visibleMenu(auth.tenantId), inArray(menu.id, [menuId])));
  if (!m) throw notFound();
}

/** Removing a scope also ends its grants (in the same transaction). */
const dropGrants = (tx: Db, ids: string[], auth: AuthContext) =>
  tx
    .delete(roleScope)
    .where(and(eq(roleScope.tenantId, auth.tenantId), inArray(roleScope.scopeId, ids)))
    .then(() => undefined);

/** Data scopes and API scopes of a tenant (api-contract §4): rules attached to menus, granted to roles. */
export function scopeRoutes(app: FastifyInstance, s: Services) {
  const clear = (auth: AuthContext) => s.cache.clearTenant(auth.tenantId);
  crudRoutes(app, s, {
    entity: 'data-scope',
    table: dataScope,
    base: '/api/blade-system/data-scope',
    codes: { view: 'datascope', add: 'datascope_add', edit: 'datascope_edit', remove: 'datascope_delete' },
    body: dataBody,
    list: {
      filters: {
        menuId: { column: dataScope.menuId, op: 'eq' },
        resourceCode: { column: dataScope.resourceCode, op: 'eq' },
        scopeName: { column: dataScope.scopeName, op: 'like' },
        scopeType: { column: dataScope.scopeType, op: 'eq' },
      },
      sorts: { scopeName: dataScope.scopeName, createTime: dataScope.createTime },
      defaultSort: [asc(dataScope.id)],
      createTime: dataScope.createTime,
    },
    async beforeSave({ tx, auth, input }) {
      await checkMenu(tx, auth, input.menuId);
      const columns = scopeResources.get(input.resourceCode);
      if (!columns) {
        throw badRequest(
          {
            zh: `未知的资源编号，可选：${[...scopeResources.keys()].join(', ')}`,
            en: `Unknown resource; one of ${[...scopeResources.keys()].join(', ')}`,
          },
          [{ field: 'resourceCode', message: 'unknown resource' }],
        );
      }
      if (input.scopeType !== SCOPE_TYPES.custom) return { scopeColumn: null, scopeValue: null };
      if (!input.scopeColumn || !columns.includes(input.scopeColumn)) {
        throw badRequest(
          {
            zh: `自定义规则的字段须是：${columns.join(', ')}`,
            en: `The custom rule's column must be one of ${columns.join(', ')}`,
          },
          [{ field: 'scopeColumn', message: columns.join(', ') }],
        );
      }
      if (!input.scopeValue)
        throw badRequest({ zh: '请输入规则值', en: 'Enter the rule values' }, [
          { field: 'scopeValue', message: '请输入规则值' },
        ]);
    },
    beforeRemove: dropGrants,
    afterWrite: clear,
  });

  crudRoutes(app, s, {
    entity: 'api-scope',
    table: apiScope,
    base: '/api/blade-system/api-scope',
    codes: { view: 'apiscope', add: 'apiscope_add', edit: 'apiscope_edit', remove: 'apiscope_delete' },
    body: apiBody,
    list: {
      filters: {
        menuId: { column: apiScope.menuId, op: 'eq' },
        resourceCode: { column: apiScope.resourceCode, op: 'eq' },
        scopeName: { column: apiScope.scopeName, op: 'like' },
        scopePath: { column: apiScope.scopePath, op: 'like' },
      },
      sorts: { scopeName: apiScope.scopeName, createTime: apiScope.createTime },
      defaultSort: [asc(apiScope.id)],
      createTime: apiScope.createTime,
    },
    async beforeSave({ tx, auth, input }) {
      await checkMenu(tx, auth, input.menuId);
    },
    beforeRemove: dropGrants,
    afterWrite: clear,
  });
}
