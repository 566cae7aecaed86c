import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Page = LazyExoticComponent<ComponentType<object>>;
const named = <M>(load: () => Promise<M>, pick: (m: M) => ComponentType<object>): Page =>
  lazy(() => load().then((m) => ({ default: pick(m) })));

/**
 * Menu route → page component. Later issues register their screens here (e.g. '/system/user/index').
 * A menu whose path is not here shows the "not available yet" page.
 */
export const registry: Record<string, Page> = {
  '/system/user/index': lazy(() => import('../features/system/UserPage')),
  '/system/dept/index': lazy(() => import('../features/system/DeptPage')),
  '/system/post/index': lazy(() => import('../features/system/PostPage')),
  '/system/role/index': lazy(() => import('../features/system/RolePage')),
  '/system/menu/index': lazy(() => import('../features/system/MenuPage')),
  '/system/topmenu/index': lazy(() => import('../features/system/TopMenuPage')),
  '/system/param/index': lazy(() => import('../features/system/ParamPage')),
  '/system/tenant/index': lazy(() => import('../features/system/TenantPage')),
  '/system/client/index': lazy(() => import('../features/system/ClientPage')),
  '/system/datascope/index': named(
    () => import('../features/system/ScopePages'),
    (m) => m.DataScopePage,
  ),
  '/system/apiscope/index': named(
    () => import('../features/system/ScopePages'),
    (m) => m.ApiScopePage,
  ),
  '/dict-horizontal/index': named(
    () => import('../features/system/DictPage'),
    (m) => m.DictHorizontalPage,
  ),
  '/dict-vertical/index': named(
    () => import('../features/system/DictPage'),
    (m) => m.DictVerticalPage,
  ),
};
