import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dictBiz } from '../../db/schema/index.ts';

/**
 * Flow routes (docs/workflow.md "Flow routes"): a process category is a key of the tenant's business dictionary
 * `flow`, and that entry's remark is the route of the category's screens (e.g. `/work/process/leave`). Its start
 * form is that route + `/form`, a task's handling screen + `/handle`, an instance's detail + `/detail`; the console
 * appends the ids. A category without an entry (or with an empty remark) has no screens: null.
 */
export const FLOW_DICT = 'flow';

export type FlowRoutes = { base: (category: string | null) => string | null };

/** The route prefixes of the given categories, read once for a list. */
export async function flowRoutesOf(tx: Db, tenantId: string, categories: (string | null)[]): Promise<FlowRoutes> {
  const keys = [...new Set(categories.filter((c): c is string => !!c))];
  const map = new Map<string, string>();
  if (keys.length) {
    const rows = await tx
      .select({ key: dictBiz.dictKey, remark: dictBiz.remark, parentId: dictBiz.parentId })
      .from(dictBiz)
      .where(
        and(
          eq(dictBiz.tenantId, tenantId),
          eq(dictBiz.code, FLOW_DICT),
          eq(dictBiz.isDeleted, 0),
          inArray(dictBiz.dictKey, keys),
        ),
      );
    for (const r of rows) {
      const route = r.remark?.trim();
      // Only an address inside the console: a remark such as `https://…` or `javascript:` is no route.
      if (r.key && r.parentId !== '0' && route && /^\/[A-Za-z0-9/_-]{1,200}$/.test(route))
        map.set(r.key, route.replace(/\/+$/, ''));
    }
  }
  return { base: (category) => (category ? (map.get(category) ?? null) : null) };
}

export const formRoute = (routes: FlowRoutes, category: string | null) => {
  const base = routes.base(category);
  return base ? `${base}/form` : null;
};
export const handleRoute = (routes: FlowRoutes, category: string | null) => {
  const base = routes.base(category);
  return base ? `${base}/handle` : null;
};
export const detailRoute = (routes: FlowRoutes, category: string | null) => {
  const base = routes.base(category);
  return base ? `${base}/detail` : null;
};
