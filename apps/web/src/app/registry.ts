import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Menu route → page component. Later issues register their screens here (e.g. '/system/user/index').
 * A menu whose path is not here shows the "not available yet" page.
 */
export const registry: Record<string, LazyExoticComponent<ComponentType<object>>> = {
  '/system/post/index': lazy(() => import('../features/system/PostPage')),
};
