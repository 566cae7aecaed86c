import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiScope, dataScope, menu } from '../../db/schema/index.ts';
import { isPlatformAdmin, PLATFORM_TENANT } from '../../platform/access.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { grantedMenus, type MenuRow } from './service.ts';
import { menuTexts } from './messages.ts';

export const beyondOwn = () => new AppError(403, menuTexts.beyondOwn);

/** Menus a tenant may reference: the platform's and its own. */
export const visibleMenu = (tenantId: string) =>
  and(eq(menu.isDeleted, 0), or(eq(menu.tenantId, PLATFORM_TENANT), eq(menu.tenantId, tenantId)));

/** What the caller may hand out: every menu for the platform administrator, otherwise exactly what their roles hold. */
export async function grantableMenus(s: Services, auth: AuthContext): Promise<MenuRow[]> {
  if (await isPlatformAdmin(s, auth)) {
    return withTenant(s.db, auth.tenantId, (tx) =>
      tx.select().from(menu).where(visibleMenu(auth.tenantId)).orderBy(asc(menu.sort), asc(menu.id)),
    );
  }
  return grantedMenus(s, auth.tenantId, auth.roleIds);
}

/**
 * Menu ids of a grant: each must exist for this tenant (else 404, like any foreign id) and be one the caller
 * may grant (else 403).
 */
export async function checkMenus(tx: Db, auth: AuthContext, ids: string[], grantable: MenuRow[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const found = await tx
    .select({ id: menu.id })
    .from(menu)
    .where(and(visibleMenu(auth.tenantId), inArray(menu.id, unique)));
  if (found.length !== unique.length) throw notFound();
  const allowed = new Set(grantable.map((m) => m.id));
  if (unique.some((id) => !allowed.has(id))) throw beyondOwn();
  return unique;
}

/** Scope ids of a grant: the tenant's own scopes, attached to menus the caller may grant. */
export async function checkScopes(
  tx: Db,
  auth: AuthContext,
  kind: 'data' | 'api',
  ids: string[],
  grantable: MenuRow[],
) {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const t = kind === 'data' ? dataScope : apiScope;
  const found = await tx
    .select({ id: t.id, menuId: t.menuId })
    .from(t)
    .where(and(eq(t.tenantId, auth.tenantId), eq(t.isDeleted, 0), inArray(t.id, unique)));
  if (found.length !== unique.length) throw notFound();
  const allowed = new Set(grantable.map((m) => m.id));
  if (found.some((f) => !allowed.has(f.menuId))) throw beyondOwn();
  return unique;
}
