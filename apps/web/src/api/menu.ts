import type { MenuNode, TopMenu } from '@atrium/contract';
import { get } from './http';

export const getRoutes = (topMenuId?: string) =>
  get<MenuNode[]>('/api/blade-system/menu/routes', topMenuId ? { topMenuId } : {});
export const getButtons = () => get<MenuNode[]>('/api/blade-system/menu/buttons');
export const getTopMenus = () => get<TopMenu[]>('/api/blade-system/menu/top-menu');
