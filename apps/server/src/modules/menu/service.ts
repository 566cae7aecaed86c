import { and, asc, eq, inArray } from 'drizzle-orm';
import { menu, roleMenu, topMenu, topMenuSetting } from '../../db/schema/index.ts';
import { notFound } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { subtree } from '../../platform/tree.ts';
import type { MenuNode } from '@atrium/contract';

export type MenuRow = typeof menu.$inferSelect;
/** The menu node of the wire, one type for server and web. */
export type { MenuNode } from '@atrium/contract';

const roleKey = (roleIds: string[]) => [...roleIds].sort().join(',');

/** Every live menu row the caller's roles are granted (menus and buttons), sorted. */
export async function grantedMenus(s: Services, tenantId: string, roleIds: string[]): Promise<MenuRow[]> {
  return s.cache.get(tenantId, `menus:${roleKey(roleIds)}`, async () => {
    if (!roleIds.length) return [];
    return withTenant(s.db, tenantId, (tx) =>
      tx
        .selectDistinct({ m: menu })
        .from(roleMenu)
        .innerJoin(menu, and(eq(menu.id, roleMenu.menuId), eq(menu.isDeleted, 0)))
        .where(and(inArray(roleMenu.roleId, roleIds), eq(roleMenu.tenantId, tenantId)))
        .orderBy(asc(menu.sort), asc(menu.id))
        .then((rows) => rows.map((r) => r.m)),
    );
  });
}

export async function permissionCodes(s: Services, tenantId: string, roleIds: string[]): Promise<Set<string>> {
  return s.cache.get(
    tenantId,
    `codes:${roleKey(roleIds)}`,
    async () => new Set((await grantedMenus(s, tenantId, roleIds)).map((m) => m.code)),
  );
}

export function toNode(m: MenuRow): MenuNode {
  return {
    id: m.id,
    parentId: m.parentId,
    code: m.code,
    name: m.name,
    alias: m.alias ?? '',
    path: m.path ?? '',
    source: m.source ?? '',
    sort: m.sort,
    category: m.category,
    action: m.action,
    isOpen: m.isOpen,
    remark: m.remark ?? '',
    hasChildren: false,
    children: [],
  };
}

/** Builds a forest from flat rows; a node whose parent is not in the set becomes a root. */
export function buildTree(rows: MenuRow[]): MenuNode[] {
  const nodes = new Map(rows.map((r) => [r.id, toNode(r)]));
  const roots: MenuNode[] = [];
  for (const n of nodes.values()) {
    const parent = nodes.get(n.parentId);
    if (parent) {
      parent.children.push(n);
      parent.hasChildren = true;
    } else roots.push(n);
  }
  return roots;
}

/** The caller's menu tree (category 1 only), optionally only below one of their tenant's top menus. */
export async function routes(s: Services, auth: AuthContext, topMenuId?: string): Promise<MenuNode[]> {
  const key = `routes:${roleKey(auth.roleIds)}:${topMenuId ?? ''}`;
  return s.cache.get(auth.tenantId, key, async () => {
    const rows = (await grantedMenus(s, auth.tenantId, auth.roleIds)).filter((m) => m.category === 1);
    if (!topMenuId) return buildTree(rows);
    const roots = await withTenant(s.db, auth.tenantId, async (tx) => {
      const [tm] = await tx
        .select({ id: topMenu.id })
        .from(topMenu)
        .where(and(eq(topMenu.id, topMenuId), eq(topMenu.tenantId, auth.tenantId), eq(topMenu.isDeleted, 0)));
      if (!tm) throw notFound();
      return tx
        .select({ id: topMenuSetting.menuId })
        .from(topMenuSetting)
        .where(and(eq(topMenuSetting.topMenuId, topMenuId), eq(topMenuSetting.tenantId, auth.tenantId)));
    });
    const keep = subtree(rows, new Set(roots.map((r) => r.id)));
    return buildTree(rows.filter((r) => keep.has(r.id)));
  });
}

/** Menus with their button children, for the client to flatten into permission flags. */
export async function buttons(s: Services, auth: AuthContext): Promise<MenuNode[]> {
  return s.cache.get(auth.tenantId, `buttons:${roleKey(auth.roleIds)}`, async () => {
    const rows = await grantedMenus(s, auth.tenantId, auth.roleIds);
    const withButtons = new Set(rows.filter((r) => r.category === 2).map((r) => r.parentId));
    return buildTree(rows.filter((r) => r.category === 2 || withButtons.has(r.id)));
  });
}

/** The tenant's top menus that lead somewhere for the caller: at least one granted menu below one of its roots. */
export async function topMenus(s: Services, auth: AuthContext) {
  return s.cache.get(auth.tenantId, `top-menus:${roleKey(auth.roleIds)}`, async () => {
    const granted = (await grantedMenus(s, auth.tenantId, auth.roleIds)).filter((m) => m.category === 1);
    const [tops, settings] = await withTenant(
      s.db,
      auth.tenantId,
      async (tx) =>
        [
          await tx
            .select({
              id: topMenu.id,
              code: topMenu.code,
              name: topMenu.name,
              source: topMenu.source,
              sort: topMenu.sort,
            })
            .from(topMenu)
            .where(and(eq(topMenu.tenantId, auth.tenantId), eq(topMenu.isDeleted, 0)))
            .orderBy(asc(topMenu.sort), asc(topMenu.id)),
          await tx
            .select({ topMenuId: topMenuSetting.topMenuId, menuId: topMenuSetting.menuId })
            .from(topMenuSetting)
            .where(eq(topMenuSetting.tenantId, auth.tenantId)),
        ] as const,
    );
    return tops.filter((t) => {
      const keep = subtree(granted, new Set(settings.filter((x) => x.topMenuId === t.id).map((x) => x.menuId)));
      return granted.some((m) => keep.has(m.id));
    });
  });
}
