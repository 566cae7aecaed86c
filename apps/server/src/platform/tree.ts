/** Tree node of docs/system-api.md "Lists and trees" (menus, depts, regions, dict trees, grant trees). */
export type TreeNode = {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  hasChildren: boolean;
  children: TreeNode[];
} & Record<string, unknown>;

/** Builds a forest from flat rows (already sorted); a row whose parent is not among them becomes a root. */
export function toTree<R extends { id: string; parentId: string }>(
  rows: R[],
  title: (r: R) => string,
  extra?: (r: R) => Record<string, unknown>,
): TreeNode[] {
  const nodes = new Map<string, TreeNode>();
  for (const r of rows) {
    nodes.set(r.id, {
      ...(extra?.(r) ?? {}),
      id: r.id,
      parentId: r.parentId,
      title: title(r),
      key: r.id,
      value: r.id,
      hasChildren: false,
      children: [],
    });
  }
  const roots: TreeNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentId !== n.id ? nodes.get(n.parentId) : undefined;
    if (parent) {
      parent.children.push(n);
      parent.hasChildren = true;
    } else roots.push(n);
  }
  return roots;
}

/** Every id at or below the given roots. */
export function subtree<R extends { id: string; parentId: string }>(rows: R[], rootIds: Iterable<string>): Set<string> {
  const children = new Map<string, string[]>();
  for (const r of rows) {
    const list = children.get(r.parentId) ?? [];
    list.push(r.id);
    children.set(r.parentId, list);
  }
  const out = new Set<string>();
  const stack = [...rootIds];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}
