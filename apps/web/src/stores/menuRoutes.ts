import { isValidUrl, type MenuNode } from '@atrium/contract';

/** A sidebar/route entry in the console's own shape (docs/product.md "Records" "Menu item (client shape)"). */
export type MenuItem = {
  id: string;
  code: string;
  name: string;
  alias: string;
  /** The route the console navigates to. */
  path: string;
  /** The server path (for an external page, its URL). */
  source: string;
  icon: string;
  isOpen: number;
  meta: { i18n: string; roles?: string[]; keepAlive: boolean };
  children: MenuItem[];
};

/**
 * docs/product.md "Screens and routes": a path with children, or a leaf, gets /index appended. An external URL (http/https) opens
 * inside the console at /myiframe/<code> (or in a new window when isOpen is 2).
 */
export function routePath(m: Pick<MenuNode, 'path' | 'code'>): string {
  const p = (m.path ?? '').trim();
  if (isValidUrl(p)) return `/myiframe/${encodeURIComponent(m.code)}`;
  if (!p) return '';
  const clean = `/${p.replace(/^\/+/, '').replace(/\/+$/, '')}`;
  return clean.endsWith('/index') ? clean : `${clean}/index`;
}

export function toMenuItems(nodes: MenuNode[]): MenuItem[] {
  return nodes
    .filter((n) => n.category === 1)
    .map((n) => ({
      id: n.id,
      code: n.code,
      name: n.name,
      alias: n.alias || n.name,
      path: routePath(n),
      source: n.path,
      icon: n.source,
      isOpen: n.isOpen,
      meta: { i18n: n.code, keepAlive: true },
      children: toMenuItems(n.children ?? []),
    }));
}

/** docs/product.md "Roles and permissions": an item is shown if it has no role restriction or the user holds one of its roles. */
export function filterByRoles(items: MenuItem[], roles: string[]): MenuItem[] {
  return items
    .filter((i) => !i.meta.roles?.length || i.meta.roles.some((r) => roles.includes(r)))
    .map((i) => ({ ...i, children: filterByRoles(i.children, roles) }));
}

export function flatten(items: MenuItem[]): MenuItem[] {
  return items.flatMap((i) => [i, ...flatten(i.children)]);
}

/** Button codes of the buttons tree as flags: { user_add: true, … }. */
export function buttonCodes(nodes: MenuNode[]): string[] {
  return nodes.flatMap((n) => [...(n.category === 2 ? [n.code] : []), ...buttonCodes(n.children ?? [])]);
}

/** docs/product.md "Validation": menu search is a case-insensitive prefix match on the name (either language's). */
export function searchMenus(items: MenuItem[], text: string): MenuItem[] {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  return flatten(items).filter(
    (i) => i.path && !i.children.length && (i.name.toLowerCase().startsWith(q) || i.alias.toLowerCase().startsWith(q)),
  );
}
