import type { MenuItem } from '../stores/menuRoutes';

/** A menu's label as the sidebar shows it: the alias in English (the name when there is none), else the name. */
export const menuLabel = (m: Pick<MenuItem, 'name' | 'alias'>, lang: string) =>
  lang === 'en' ? m.alias || m.name : m.name;

/** Tree nodes of menus and buttons (known by id in `names`) labelled like the sidebar; other nodes unchanged. */
export function labelMenuTree<N extends { id: string; title: string; children?: N[] }>(
  tree: N[],
  names: Record<string, { name: string; alias: string }>,
  lang: string,
): N[] {
  return tree.map((n) => {
    const known = names[n.id];
    return {
      ...n,
      title: known ? menuLabel({ name: n.title, alias: known.alias }, lang) : n.title,
      ...(n.children ? { children: labelMenuTree(n.children, names, lang) } : {}),
    };
  });
}

export const subKey = (m: Pick<MenuItem, 'id'>) => `sub:${m.id}`;

/** Keys of the submenus leading to the leaf whose route is `path`, outermost first; [] when no leaf has it. */
export function openKeysFor(menus: MenuItem[], path: string): string[] {
  for (const m of menus) {
    if (!m.children.length) continue;
    if (m.children.some((c) => !c.children.length && c.path === path)) return [subKey(m)];
    const inner = openKeysFor(m.children, path);
    if (inner.length) return [subKey(m), ...inner];
  }
  return [];
}

/** The submenus the user opened stay open; those leading to the current page are added. */
export function mergeOpen(open: string[], wanted: string[]): string[] {
  const missing = wanted.filter((k) => !open.includes(k));
  return missing.length ? [...open, ...missing] : open;
}
