import { shell } from '@atrium/contract';
import { call } from './call';

export const getRoutes = (topMenuId?: string) => call(shell.menuRoutes, { query: topMenuId ? { topMenuId } : {} });
export const getButtons = () => call(shell.menuButtons);
export const getTopMenus = () => call(shell.topMenus);
