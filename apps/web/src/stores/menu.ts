import { create } from 'zustand';
import type { MenuNode, TopMenu } from '@atrium/contract';
import { getButtons, getRoutes, getTopMenus } from '../api/menu';
import { buttonCodes, filterByRoles, flatten, toMenuItems, type MenuItem } from './menuRoutes';

type MenuState = {
  menus: MenuItem[];
  /** Every menu of the user (all top menus), for DynamicPage and search. */
  allMenus: MenuItem[];
  topMenus: TopMenu[];
  activeTopMenuId: string;
  loaded: boolean;
  /** Name and alias of every menu and button of the user by id, for trees that show menus (e.g. role grant). */
  names: Record<string, { name: string; alias: string }>;
  /** The screen paths under each top menu (by id), loaded on demand (`loadTopMenuPaths`) to show which one is open. */
  topMenuPaths: Record<string, string[]> | null;
  loadTopMenuPaths(roles: string[]): Promise<void>;
  loadRoutes(topMenuId?: string, roles?: string[]): Promise<void>;
  loadAll(roles: string[]): Promise<string[]>;
  reset(): void;
};

/** Menu and button nodes by id. */
export function namesOf(...trees: MenuNode[][]): MenuState['names'] {
  const out: MenuState['names'] = {};
  const walk = (nodes: MenuNode[]) =>
    nodes.forEach((n) => {
      out[n.id] = { name: n.name, alias: n.alias ?? '' };
      walk(n.children ?? []);
    });
  trees.forEach(walk);
  return out;
}

export const useMenu = create<MenuState>((set, get) => ({
  menus: [],
  allMenus: [],
  topMenus: [],
  activeTopMenuId: '',
  loaded: false,
  names: {},
  topMenuPaths: null,
  async loadTopMenuPaths(roles) {
    const tops = get().topMenus;
    const trees = await Promise.all(tops.map((m) => getRoutes(m.id)));
    // The top menus of the same load only (a logout or a reload meanwhile leaves the state alone).
    if (get().topMenus !== tops) return;
    const paths = (nodes: MenuNode[]) => flatten(filterByRoles(toMenuItems(nodes), roles)).map((m) => m.path);
    set({ topMenuPaths: Object.fromEntries(tops.map((m, i) => [m.id, paths(trees[i])])) });
  },
  /** docs/product.md "Screens and routes": picking a top menu loads that menu's children by id and formats them as routes. */
  async loadRoutes(topMenuId, roles = []) {
    const nodes = await getRoutes(topMenuId);
    set({ menus: filterByRoles(toMenuItems(nodes), roles), activeTopMenuId: topMenuId ?? '' });
  },
  /** The flow-routes load on mount: all menus, top menus and button codes. */
  async loadAll(roles) {
    const [nodes, tops, buttons] = await Promise.all([getRoutes(), getTopMenus(), getButtons()]);
    const items = filterByRoles(toMenuItems(nodes), roles);
    set({
      menus: items,
      allMenus: items,
      topMenus: tops,
      topMenuPaths: null,
      activeTopMenuId: '',
      loaded: true,
      names: namesOf(nodes, buttons),
    });
    return buttonCodes(buttons);
  },
  reset() {
    set({ menus: [], allMenus: [], topMenus: [], topMenuPaths: null, activeTopMenuId: '', loaded: false, names: {} });
  },
}));

/**
 * The top-menu key to highlight for a screen: the chosen top menu while it holds the screen (or no top menu holds
 * it), otherwise the first top menu holding it; 'home' stands for no top menu chosen.
 */
export function highlightedTopMenu(
  path: string,
  activeTopMenuId: string,
  topMenuPaths: Record<string, string[]> | null,
  order: string[],
): string {
  const chosen = activeTopMenuId || 'home';
  if (!topMenuPaths) return chosen;
  const owners = order.filter((id) => topMenuPaths[id]?.includes(path));
  if (!owners.length || owners.includes(activeTopMenuId)) return chosen;
  return owners[0];
}
