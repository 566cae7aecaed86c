import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, count, eq, inArray, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import {
  apiScope,
  dataScope,
  menu,
  role,
  roleMenu,
  roleScope,
  topMenu,
  topMenuSetting,
} from '../../db/schema/index.ts';
import { crudRoutes, idList, parentParam } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { optionalText, requiredText } from '../../platform/fields.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { toTree } from '../../platform/tree.ts';
import { grantableMenus } from './grants.ts';

const body = z.object({
  parentId: parentParam.default('0'),
  code: requiredText('请输入菜单编号', 'Enter the menu code', 255).regex(
    /^[A-Za-z0-9_:.-]+$/,
    '菜单编号只能包含字母、数字和 _ : . -',
  ),
  name: requiredText('请输入菜单名称', 'Enter the menu name', 255),
  alias: optionalText(255),
  path: optionalText(255),
  source: optionalText(255),
  sort: z.coerce.number().int().min(0).max(999999).default(0),
  category: z.coerce.number().int().min(1).max(2).default(1),
  action: z.coerce.number().int().min(0).max(3).default(0),
  isOpen: z.coerce.number().int().min(1).max(2).default(1),
  remark: optionalText(255),
});

const texts = {
  parentMissing: { zh: '上级菜单不存在', en: 'The parent menu does not exist' },
  buttonParent: { zh: '按钮不能作为上级菜单', en: 'A button cannot have children' },
  cycle: { zh: '上级菜单不能是自己或自己的下级', en: 'A menu cannot move below itself' },
  hasChildren: { zh: '请先删除子菜单', en: 'Remove its child menus first' },
};

const nodeOf = (m: typeof menu.$inferSelect) => ({
  code: m.code,
  category: m.category,
  source: m.source,
  path: m.path,
  sort: m.sort,
});

/** Menu management (platform menus, the platform administrator's) and the grant trees of roles and top menus. */
export function menuAdminRoutes(root: FastifyInstance, s: Services) {
  const svc = crudRoutes(root, s, {
    entity: 'menu',
    table: menu,
    base: '/api/blade-system/menu',
    platform: true,
    codes: { view: 'menu', add: 'menu_add', edit: 'menu_edit', remove: 'menu_delete' },
    body,
    list: {
      filters: {
        code: { column: menu.code, op: 'like' },
        name: { column: menu.name, op: 'like' },
        alias: { column: menu.alias, op: 'like' },
        category: { column: menu.category, op: 'eq' },
      },
      sorts: { sort: menu.sort, code: menu.code, createTime: menu.createTime },
      defaultSort: [asc(menu.sort), asc(menu.id)],
      createTime: menu.createTime,
    },
    tree: {
      parentId: menu.parentId,
      title: 'name',
      sort: menu.sort,
      nodes: eq(menu.category, 1),
      routes: ['lazy-list', 'lazy-tree'],
    },
    unique: { menu_code_uq: { field: 'code', text: { zh: '菜单编号已存在', en: 'The menu code already exists' } } },
    async beforeSave({ tx, auth, input, existing }) {
      if (input.parentId === '0') return;
      const [parent] = await tx
        .select()
        .from(menu)
        .where(and(eq(menu.tenantId, auth.tenantId), eq(menu.id, input.parentId), eq(menu.isDeleted, 0)));
      if (!parent) throw badRequest(texts.parentMissing, [{ field: 'parentId', message: texts.parentMissing.zh }]);
      if (parent.category === 2)
        throw badRequest(texts.buttonParent, [{ field: 'parentId', message: texts.buttonParent.zh }]);
      if (existing) {
        // Walk up from the new parent: meeting the menu itself means a cycle.
        const all = await tx
          .select({ id: menu.id, parentId: menu.parentId })
          .from(menu)
          .where(eq(menu.tenantId, auth.tenantId));
        const up = new Map(all.map((m) => [m.id, m.parentId]));
        for (let at: string | undefined = parent.id, i = 0; at && at !== '0' && i < 10_000; at = up.get(at), i++) {
          if (at === existing.id) throw badRequest(texts.cycle, [{ field: 'parentId', message: texts.cycle.zh }]);
        }
      }
    },
    async beforeRemove(tx, ids, auth) {
      const [{ n }] = await tx
        .select({ n: count() })
        .from(menu)
        .where(
          and(
            eq(menu.tenantId, auth.tenantId),
            eq(menu.isDeleted, 0),
            inArray(menu.parentId, ids),
            notInArray(menu.id, ids),
          ),
        );
      if (n > 0) throw badRequest(texts.hasChildren);
    },
    // Platform menus are read by every tenant.
    afterWrite: () => s.cache.clearAll(),
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['menu'];
  const read = { permission: 'menu', platform: true };
  const anyQuery = z.record(z.string(), z.unknown());
  app.get(
    '/api/blade-system/menu/lazy-menu-list',
    { config: read, schema: { tags, querystring: anyQuery } },
    async (req) => ok(await svc.lazyList(requireAuth(req), req.query as Record<string, unknown>, eq(menu.category, 1))),
  );
  app.get('/api/blade-system/menu/menu-list', { config: read, schema: { tags, querystring: anyQuery } }, async (req) =>
    ok(await svc.list(requireAuth(req), req.query as Record<string, unknown>, eq(menu.category, 1))),
  );

  // The menu picker of scopes, top menus and roles: the menus (not buttons) the caller may hand out.
  app.get(
    '/api/blade-system/menu/tree',
    {
      config: { permission: ['menu', 'datascope', 'apiscope', 'topmenu', 'role'] },
      schema: { tags, querystring: z.object({ tenantId: z.string().max(12).optional() }) },
    },
    async (req) => {
      const menus = (await grantableMenus(s, requireAuth(req))).filter((m) => m.category === 1);
      return ok(toTree(menus, (m) => m.name, nodeOf));
    },
  );

  // Grant trees: what the caller may hand out, as nodes (role grant: menus, data scopes, API scopes).
  app.get(
    '/api/blade-system/menu/grant-tree',
    { config: { permission: 'role_grant' }, schema: { tags } },
    async (req) => {
      const auth = requireAuth(req);
      const menus = await grantableMenus(s, auth);
      const ids = menus.map((m) => m.id);
      const names = new Map(menus.map((m) => [m.id, m.name]));
      const [scopes, apis] = ids.length
        ? await withTenant(s.db, auth.tenantId, (tx) =>
            Promise.all([
              tx
                .select()
                .from(dataScope)
                .where(
                  and(
                    eq(dataScope.tenantId, auth.tenantId),
                    eq(dataScope.isDeleted, 0),
                    inArray(dataScope.menuId, ids),
                  ),
                )
                .orderBy(asc(dataScope.id)),
              tx
                .select()
                .from(apiScope)
                .where(
                  and(eq(apiScope.tenantId, auth.tenantId), eq(apiScope.isDeleted, 0), inArray(apiScope.menuId, ids)),
                )
                .orderBy(asc(apiScope.id)),
            ]),
          )
        : [[], []];
      const leaf = (id: string, title: string, extra: Record<string, unknown>) => ({
        id,
        parentId: '0',
        title,
        key: id,
        value: id,
        hasChildren: false,
        children: [],
        ...extra,
      });
      return ok({
        menu: toTree(menus, (m) => m.name, nodeOf),
        dataScope: scopes.map((d) =>
          leaf(d.id, `${names.get(d.menuId) ?? ''} / ${d.scopeName}`, {
            menuId: d.menuId,
            resourceCode: d.resourceCode,
            scopeType: d.scopeType,
          }),
        ),
        apiScope: apis.map((a) =>
          leaf(a.id, `${names.get(a.menuId) ?? ''} / ${a.scopeName}`, {
            menuId: a.menuId,
            scopePath: a.scopePath,
            scopeMethod: a.scopeMethod,
          }),
        ),
      });
    },
  );

  app.get(
    '/api/blade-system/menu/role-tree-keys',
    { config: { permission: 'role_grant' }, schema: { tags, querystring: z.object({ roleIds: idList }) } },
    async (req) => {
      const auth = requireAuth(req);
      const roleIds = [...new Set(req.query.roleIds)];
      return ok(
        await withTenant(s.db, auth.tenantId, async (tx) => {
          const found = await tx
            .select({ id: role.id })
            .from(role)
            .where(and(eq(role.tenantId, auth.tenantId), eq(role.isDeleted, 0), inArray(role.id, roleIds)));
          if (found.length !== roleIds.length) throw notFound();
          const [menus, scopes] = await Promise.all([
            tx
              .selectDistinct({ id: roleMenu.menuId })
              .from(roleMenu)
              .innerJoin(menu, and(eq(menu.id, roleMenu.menuId), eq(menu.isDeleted, 0)))
              .where(and(eq(roleMenu.tenantId, auth.tenantId), inArray(roleMenu.roleId, roleIds))),
            tx
              .selectDistinct({ id: roleScope.scopeId, category: roleScope.scopeCategory })
              .from(roleScope)
              .where(and(eq(roleScope.tenantId, auth.tenantId), inArray(roleScope.roleId, roleIds))),
          ]);
          return {
            menu: menus.map((m) => m.id),
            dataScope: scopes.filter((x) => x.category === 1).map((x) => x.id),
            apiScope: scopes.filter((x) => x.category === 2).map((x) => x.id),
          };
        }),
      );
    },
  );

  app.get(
    '/api/blade-system/menu/grant-top-tree',
    { config: { permission: 'topmenu_setting' }, schema: { tags } },
    async (req) => {
      const menus = (await grantableMenus(s, requireAuth(req))).filter((m) => m.category === 1);
      return ok({ menu: toTree(menus, (m) => m.name, nodeOf) });
    },
  );

  app.get(
    '/api/blade-system/menu/top-tree-keys',
    { config: { permission: 'topmenu_setting' }, schema: { tags, querystring: z.object({ topMenuIds: idList }) } },
    async (req) => {
      const auth = requireAuth(req);
      const ids = [...new Set(req.query.topMenuIds)];
      return ok(
        await withTenant(s.db, auth.tenantId, async (tx) => {
          const found = await tx
            .select({ id: topMenu.id })
            .from(topMenu)
            .where(and(eq(topMenu.tenantId, auth.tenantId), eq(topMenu.isDeleted, 0), inArray(topMenu.id, ids)));
          if (found.length !== ids.length) throw notFound();
          const rows = await tx
            .selectDistinct({ id: topMenuSetting.menuId })
            .from(topMenuSetting)
            .where(and(eq(topMenuSetting.tenantId, auth.tenantId), inArray(topMenuSetting.topMenuId, ids)));
          return { menu: rows.map((r) => r.id) };
        }),
      );
    },
  );
}
