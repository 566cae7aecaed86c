import { createElement, type ComponentType, type LazyExoticComponent } from 'react';
import { screenPath, type ResourceDef } from '@atrium/contract';
import { lazyPage } from './lazy';

type Page = LazyExoticComponent<ComponentType<object>>;
type Module = Record<string, unknown>;

/**
 * Menu route → page component (docs/web.md "Screens by convention"). Two sources, the second winning:
 * 1. every resource definition `packages/contract/src/resources/<group>/<code>.ts` → `/<group>/<code>/index`,
 *    drawn by ResourcePage from the definition alone;
 * 2. a module's own page `src/features/<group>/<code>.page.tsx` (default export) → `/<group>/<code>/index`.
 * A few menu paths the product fixes otherwise are aliases of convention paths (below).
 * Every screen is a lazy chunk behind the same loader (with its load timeout). A menu whose path is in none of them
 * shows the "not available yet" page.
 */

/** '…/<group>/<code>.ts' or '…/<group>/<code>.page.tsx' → '/<group>/<code>/index'. */
export function screenOf(file: string): string | null {
  const m = /\/([^/]+)\/([^/.]+)(?:\.page)?\.tsx?$/.exec(file);
  return m ? `/${m[1]}/${m[2]}/index` : null;
}

const isDef = (v: unknown): v is ResourceDef =>
  !!v && typeof v === 'object' && 'code' in v && 'group' in v && 'base' in v && 'fields' in v;

/** The definition a file exports for a path (its code may differ from the file name only if it is the only one). */
export function definitionIn(module: Module, path: string): ResourceDef | undefined {
  const defs = Object.values(module).filter(isDef);
  return defs.find((d) => screenPath(d) === path) ?? (defs.length === 1 ? defs[0] : undefined);
}

function plainScreen(path: string, load: () => Promise<unknown>): Page {
  return lazyPage(async () => {
    const [module, { default: ResourcePage }] = await Promise.all([
      load() as Promise<Module>,
      import('../components/crud/ResourcePage'),
    ]);
    const def = definitionIn(module, path);
    if (!def) throw new Error(`no resource definition for ${path}`);
    const Screen = () => createElement(ResourcePage, { def });
    return { default: Screen };
  });
}

const definitions = import.meta.glob([
  '../../../../packages/contract/src/resources/*/*.ts',
  '!../../../../packages/contract/src/resources/*/*.test.ts',
]);
const customPages = import.meta.glob<{ default: ComponentType<object> }>([
  '../features/*/*.page.tsx',
  // 我的事务 (docs/workflow.md "Screens: my work and leave"): features/flow/work/<code>.page.tsx → /work/<code>/index.
  '../features/flow/work/*.page.tsx',
]);

const byConvention = <T>(files: Record<string, T>, page: (path: string, load: T) => Page) =>
  Object.fromEntries(
    Object.entries(files).flatMap(([file, load]) => {
      const path = screenOf(file);
      return path ? [[path, page(path, load)]] : [];
    }),
  );

/**
 * Menu paths the product fixes otherwise (docs/product.md "Screens and routes") → the screen of the convention path.
 */
const aliases: Record<string, string> = {
  '/dict-horizontal/index': '/system/dict/index',
  '/dict-vertical/index': '/system/dictbiz/index',
};

const screens: Record<string, Page> = {
  ...byConvention(definitions, plainScreen),
  ...byConvention(customPages, (_path, load) => lazyPage(load)),
};

export const registry: Record<string, Page> = {
  ...screens,
  ...Object.fromEntries(Object.entries(aliases).flatMap(([path, to]) => (screens[to] ? [[path, screens[to]]] : []))),
};
