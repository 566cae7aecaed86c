import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { dataScope, menu, role, roleMenu, roleScope } from '../../db/schema/index.ts';
import { BUSINESS_RESOURCES, productRoles, productScopeNames, type ProductRole } from '../../db/seed-data/roles.ts';

/**
 * Grants the product roles of a tenant what docs/product.md "Product roles" says they hold: screens (within the
 * tenant's package `packageMenuIds`) with their buttons, and one data scope per business resource (made once per
 * tenant and type). Roles missing from the tenant are skipped; grants already there are kept.
 */
export async function grantProductRoles(
  tx: Db,
  tenantId: string,
  packageMenuIds: string[],
  audit: { createUser?: string | null; createTime: Date; updateTime: Date },
  /** Only these roles (a role added to existing tenants: modules/leave's `hr`); default every product role. */
  only?: readonly ProductRole['alias'][],
): Promise<void> {
  if (!packageMenuIds.length) return;
  const menus = await tx
    .select({ id: menu.id, parentId: menu.parentId, code: menu.code, category: menu.category })
    .from(menu)
    .where(and(inArray(menu.id, packageMenuIds), eq(menu.isDeleted, 0)));
  const byCode = new Map(menus.map((m) => [m.code, m]));
  const children = new Map<string, typeof menus>();
  for (const m of menus) children.set(m.parentId, [...(children.get(m.parentId) ?? []), m]);
  const roles = await tx
    .select({ id: role.id, alias: role.roleAlias })
    .from(role)
    .where(and(eq(role.tenantId, tenantId), eq(role.isDeleted, 0)));
  const scopes = new Map<string, string>();
  const scopeFor = async (resource: string, type: number) => {
    const key = `${resource}:${type}`;
    if (scopes.has(key)) return scopes.get(key)!;
    const screen = byCode.get(resource);
    if (!screen) return undefined;
    const [found] = await tx
      .select({ id: dataScope.id })
      .from(dataScope)
      .where(
        and(
          eq(dataScope.tenantId, tenantId),
          eq(dataScope.resourceCode, resource),
          eq(dataScope.scopeType, type),
          eq(dataScope.isDeleted, 0),
        ),
      )
      .limit(1);
    const id = found?.id ?? newId();
    if (!found)
      await tx.insert(dataScope).values({
        id,
        tenantId,
        menuId: screen.id,
        resourceCode: resource,
        scopeName: productScopeNames[type as 1],
        scopeType: type,
        ...audit,
      });
    scopes.set(key, id);
    return id;
  };
  for (const spec of only ? productRoles.filter((p) => only.includes(p.alias)) : productRoles) {
    const r = roles.find((x) => x.alias === spec.alias);
    if (!r) continue;
    const granted = new Set<string>();
    const addScreen = (code: string) => {
      const screen = byCode.get(code);
      if (!screen) return;
      granted.add(screen.id);
      if (screen.parentId !== '0' && menus.some((m) => m.id === screen.parentId)) granted.add(screen.parentId);
      const keep = spec.buttons?.[code];
      for (const b of children.get(screen.id) ?? [])
        if (!keep || keep.some((k) => b.code === `${code}_${k}`)) granted.add(b.id);
    };
    for (const entry of spec.screens) {
      if (entry.startsWith('group:')) {
        const group = byCode.get(entry.slice(6));
        if (!group) continue;
        granted.add(group.id);
        for (const screen of children.get(group.id) ?? []) addScreen(screen.code);
      } else addScreen(entry);
    }
    const have = new Set(
      (
        await tx
          .select({ menuId: roleMenu.menuId })
          .from(roleMenu)
          .where(and(eq(roleMenu.tenantId, tenantId), eq(roleMenu.roleId, r.id)))
      ).map((x) => x.menuId),
    );
    const rows = [...granted].filter((id) => !have.has(id)).map((menuId) => ({ roleId: r.id, menuId, tenantId }));
    if (rows.length) await tx.insert(roleMenu).values(rows);
    for (const resource of spec.scopeType ? BUSINESS_RESOURCES : []) {
      const scopeId = await scopeFor(resource, spec.scopeType!);
      if (scopeId)
        await tx.insert(roleScope).values({ roleId: r.id, scopeId, scopeCategory: 1, tenantId }).onConflictDoNothing();
    }
  }
}
