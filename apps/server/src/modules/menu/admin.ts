import type { FastifyInstance } from 'fastify';
import { grants, system } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { fromContract } from '../../platform/contract-route.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, inArray } from 'drizzle-orm';
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
import { bindResource, resourceRoutes } from '../../platform/resource.ts';
import { menu as menuDef } from '@atrium/contract/resources/system/menu';
import { ok } from '../../platform/envelope.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { callerHoldings, type Holdings } from '../../platform/privilege.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { toTree } from '../../platform/tree.ts';
import { grantableMenus } from './grants.ts';
import { menuTexts as texts } from './messages.ts';

const nodeOf = (m: typeof menu.$inferSelect) => ({
  code: m.code,
  category: m.category,
  source: m.source,
  path: m.path,
  sort: m.sort,
});

/** Menu management (platform menus, the platform administrator's) and the grant trees of roles and top menus. */
export function menuAdminRoutes(root: FastifyInstance, s: Services) {
  const svc = resourceRoutes(
    root,
    s,
    bindResource(menuDef, menu, {
      treeNodes: eq(menu.category, 1),
      // The shared tree rules checked the parent exists and no cycle; a button has no children.
      async beforeSave({ tx, auth, input }) {
        if (!input.parentId || input.parentId === '0') return;
        const [parent] = await tx
          .select({ category: menu.category })
          .from(menu)
          .where(and(eq(menu.tenantId, auth.tenantId), eq(menu.id, String(input.parentId)), eq(menu.isDeleted, 0)));
        if (parent?.category === 2)
          throw badRequest(texts.buttonParent, [{ field: 'parentId', message: texts.buttonParent }]);
      },
    }),
  );

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['menu'];
  app.route({
    ...fromContract(system.lazyMenuList, apiSchemas.system.lazyMenuList, tags),
    handler: async (req) => ok(await svc.lazyList(requireAuth(req), req.query, eq(menu.category, 1))),
  });
  app.route({
    ...fromContract(system.menuList, apiSchemas.system.menuList, tags),
    handler: async (req) => ok(await svc.list(requireAuth(req), req.query, eq(menu.category, 1))),
  });

  // The menu picker of scopes, top menus and roles: the menus (not buttons) the caller may hand out.
  app.get(
    `${menuDef.base}/tree`,
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
  app.route({
    ...fromContract(grants.roleGrantTree, apiSchemas.grants.roleGrantTree, tags),
    handler: async (req) => ok(await grantTree(s, requireAuth(req))),
  });

  app.route({
    ...fromContract(grants.roleTreeKeys, apiSchemas.grants.roleTreeKeys, tags),
    handler: async (req) => {
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
  });

  app.route({
    ...fromContract(grants.topGrantTree, apiSchemas.grants.topGrantTree, tags),
    handler: async (req) => {
      const menus = (await grantableMenus(s, requireAuth(req))).filter((m) => m.category === 1);
      return ok({ menu: toTree(menus, (m) => m.name, nodeOf) });
    },
  });

  app.route({
    ...fromContract(grants.topTreeKeys, apiSchemas.grants.topTreeKeys, tags),
    handler: async (req) => {
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
  });
}

/** What the caller may hand out in a role grant, as nodes: menus, data scopes and API scopes. */
async function grantTree(s: Services, auth: AuthContext) {
  const menus = await grantableMenus(s, auth);
  const ids = menus.map((m) => m.id);
  const names = new Map(menus.map((m) => [m.id, m.name]));
  const [scopes, apis, holds] = ids.length
    ? await withTenant(s.db, auth.tenantId, (tx) =>
        Promise.all([
          tx
            .select()
            .from(dataScope)
            .where(
              and(eq(dataScope.tenantId, auth.tenantId), eq(dataScope.isDeleted, 0), inArray(dataScope.menuId, ids)),
            )
            .orderBy(asc(dataScope.id)),
          tx
            .select()
            .from(apiScope)
            .where(and(eq(apiScope.tenantId, auth.tenantId), eq(apiScope.isDeleted, 0), inArray(apiScope.menuId, ids)))
            .orderBy(asc(apiScope.id)),
          // Scopes are offered only as far as the caller holds them (the grant refuses the rest).
          callerHoldings(tx, auth),
        ]),
      )
    : [[], [], null];
  const offered = <T extends { id: string }>(rows: T[], held: (h: Holdings) => { has(id: string): boolean }) =>
    !holds || holds.admin ? rows : rows.filter((r) => held(holds).has(r.id));
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
  return {
    menu: toTree(menus, (m) => m.name, nodeOf),
    dataScope: offered(scopes, (h) => h.data).map((d) =>
      leaf(d.id, `${names.get(d.menuId) ?? ''} / ${d.scopeName}`, {
        menuId: d.menuId,
        resourceCode: d.resourceCode,
        scopeType: d.scopeType,
      }),
    ),
    apiScope: offered(apis, (h) => h.api).map((a) =>
      leaf(a.id, `${names.get(a.menuId) ?? ''} / ${a.scopeName}`, {
        menuId: a.menuId,
        scopePath: a.scopePath,
        scopeMethod: a.scopeMethod,
      }),
    ),
  };
}
