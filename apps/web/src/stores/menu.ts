import { create } from 'zustand';
import type { TopMenu } from '@atrium/contract';
import { getButtons, getRoutes, getTopMenus } from '../api/menu';
import { buttonCodes, filterByRoles, toMenuItems, type MenuItem } from './menuRoutes';

type MenuState = {
  menus: MenuItem[];
  /** Every menu of the user (all top menus), for DynamicPage and search. */
  allMenus: MenuItem[];
  topMenus: TopMenu[];
  activeTopMenuId: string;
  loaded: boolean;
  loadRoutes(topMenuId?: string, roles?: string[]): Promise<void>;
  loadAll(roles: string[]): Promise<string[]>;
  reset(): void;
};

export const useMenu = create<MenuState>((set) => ({
  menus: [],
  allMenus: [],
  topMenus: [],
  activeTopMenuId: '',
  loaded: false,
  /** Spec §2: picking a top menu loads that menu's children by id and formats them as routes. */
  async loadRoutes(topMenuId, roles = []) {
    const nodes = await getRoutes(topMenuId);
    set({ menus: filterByRoles(toMenuItems(nodes), roles), activeTopMenuId: topMenuId ?? '' });
  },
  /** The flow-routes load on mount: all menus, top menus and button codes. */
  async loadAll(roles) {
    const [nodes, tops, buttons] = await Promise.all([getRoutes(), getTopMenus(), getButtons()]);
    const items = filterByRoles(toMenuItems(nodes), roles);
    set({ menus: items, allMenus: items, topMenus: tops, activeTopMenuId: '', loaded: true });
    return buttonCodes(buttons);
  },
  reset() {
    set({ menus: [], allMenus: [], topMenus: [], activeTopMenuId: '', loaded: false });
  },
}));
