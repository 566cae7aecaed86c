import { create } from 'zustand';
import type { MenuNode, TopMenu } from '@atrium/contract';
import { getButtons, getRoutes, getTopMenus } from '../api/menu';
import { buttonCodes, filterByRoles, toMenuItems, type MenuItem } from './menuRoutes';

type MenuState = {
  menus: MenuItem[];
  /** Every menu of the user (all top menus), for DynamicPage and search. */
  allMenus: MenuItem[];
  topMenus: TopMenu[];
  activeTopMenuId: string;
  loaded: boolean;
  /** Name and alias of every menu and button of the user by id, for trees that show menus (e.g. role grant). */
  names: Record<string, { name: string; alias: string }>;
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

export const useMenu = create<MenuState>((set) => ({
  menus: [],
  allMenus: [],
  topMenus: [],
  activeTopMenuId: '',
  loaded: false,
  names: {},
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
      activeTopMenuId: '',
      loaded: true,
      names: namesOf(nodes, buttons),
    });
    return buttonCodes(buttons);
  },
  reset() {
    set({ menus: [], allMenus: [], topMenus: [], activeTopMenuId: '', loaded: false, names: {} });
  },
}));
