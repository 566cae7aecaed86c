import { useMemo } from 'react';
import { useQueries, useQuery, type QueryObserverResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dictionary, fetchRecords, fetchTree, type DictEntry } from '../../api/system';
import { labelMenuTree } from '../../layout/sidebarKeys';
import { useMenu } from '../../stores/menu';
import type { CrudField, Option, TreeNode } from './types';

/** Where a field's choices come from, as a TanStack Query (cached per dictionary code / URL). */
function sourceOf(
  f: CrudField,
  lang: string,
): { queryKey: readonly unknown[]; queryFn: () => Promise<unknown>; staleTime: number } | null {
  if (f.treeUrl) return { queryKey: ['tree', f.treeUrl], queryFn: () => fetchTree(f.treeUrl!), staleTime: 30_000 };
  if (f.dict) return { queryKey: ['dict', f.dict, lang], queryFn: () => dictionary(f.dict!), staleTime: 300_000 };
  if (f.dictBiz)
    return { queryKey: ['dictBiz', f.dictBiz, lang], queryFn: () => dictionary(f.dictBiz!, true), staleTime: 300_000 };
  if (f.optionsUrl)
    return { queryKey: ['options', f.optionsUrl], queryFn: () => fetchRecords(f.optionsUrl!), staleTime: 30_000 };
  return null;
}

/** Dictionary keys are strings; numeric ones match the numeric columns they describe. */
const keyValue = (k: string): string | number => (/^-?\d+$/.test(k) && k.length < 15 ? Number(k) : k);

export const dictOptions = (entries: DictEntry[] | undefined): Option[] =>
  (entries ?? []).map((e) => ({ value: keyValue(e.dictKey), label: e.dictValue }));

// A stable combine: TanStack re-runs it only when a result changed, so its answer keeps its identity.
const combineData = (results: QueryObserverResult<unknown>[]) => results.map((r) => r.data);

export type FieldSources = {
  options: Record<string, Option[]>;
  trees: Record<string, TreeNode[]>;
  /** value (as string) → label, per field, for the table cells. */
  labels: Record<string, Map<string, string>>;
};

function walk(nodes: TreeNode[] | undefined, into: Map<string, string>) {
  for (const n of nodes ?? []) {
    into.set(String(n.value ?? n.id), n.title);
    walk(n.children, into);
  }
}

/** Options and trees of every field that has a source; all memoised on the fetched data. */
export function useFieldSources(fields: CrudField[]): FieldSources {
  // Dictionaries answer in the reader's language: cached per language.
  const { t, i18n } = useTranslation();
  const withSource = useMemo(
    () => fields.map((f) => [f, sourceOf(f, i18n.language)] as const).filter(([, s]) => s),
    [fields, i18n.language],
  );
  // Menu nodes carry the name only; the user's menus give their aliases, as in the sidebar.
  const menuNames = useMenu((s) => s.names);
  const data = useQueries({
    queries: withSource.map(([, s]) => ({ ...s!, retry: false })),
    combine: combineData,
  });
  return useMemo(() => {
    const options: Record<string, Option[]> = {};
    const trees: Record<string, TreeNode[]> = {};
    const labels: Record<string, Map<string, string>> = {};
    const inline = (f: CrudField) => (f.options ?? []).map((o) => ({ value: o.value, label: t(o.label) }));
    const byField = new Map(withSource.map(([f], i) => [f.name, data[i]]));
    for (const f of fields) {
      const d = byField.get(f.name);
      const map = new Map<string, string>();
      if (f.treeUrl) {
        const nodes = (d as TreeNode[] | undefined) ?? [];
        trees[f.name] = f.menuLabels ? labelMenuTree(nodes, menuNames, i18n.language) : nodes;
        walk(trees[f.name], map);
      } else {
        let opts: Option[];
        if (f.dict || f.dictBiz) {
          opts = dictOptions(d as DictEntry[] | undefined);
          if (!opts.length) opts = inline(f);
        } else if (f.optionsUrl) {
          opts = ((d as Record<string, unknown>[] | undefined) ?? []).map((r) => ({
            value: r[f.optionValue ?? 'id'] as string,
            label: String(r[f.optionLabel ?? 'name'] ?? ''),
          }));
        } else {
          opts = inline(f);
        }
        if (!opts.length) continue;
        options[f.name] = opts;
        for (const o of opts) map.set(String(o.value), o.label);
      }
      labels[f.name] = map;
    }
    return { options, trees, labels };
  }, [fields, withSource, data, t, menuNames, i18n.language]);
}

/** One tree of nodes by URL (the user screen's department tree, grant dialogs). */
export function useTree(url: string, enabled = true) {
  return useQuery({ queryKey: ['tree', url], queryFn: () => fetchTree(url), staleTime: 30_000, enabled });
}
