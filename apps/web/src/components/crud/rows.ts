import { useCallback, useMemo, useState } from 'react';
import { keepPreviousData, useQueries, useQuery, type QueryObserverResult } from '@tanstack/react-query';
import { crudApi, listUrl } from '../../api/crud';
import type { CrudSchema, Row } from './types';

const EMPTY: Row[] = [];
const NO_ORDER: Record<string, string> = {};
const combineRows = (results: QueryObserverResult<Row[]>[]) => results.map((r) => r.data);

/** Empty `children` arrays make antd draw an expand button on a leaf; drop them. */
export function pruneChildren(rows: Row[]): Row[] {
  return rows.map((r) => {
    if (!Array.isArray(r.children)) return r;
    if (!r.children.length) {
      const { children: _, ...rest } = r;
      return rest as Row;
    }
    return { ...r, children: pruneChildren(r.children) };
  });
}

/**
 * The rows of a CRUD table: a page, a whole tree (records with `children`), or a lazy tree
 * (`lazy-list?parentId=` per expanded row, each level its own cached query so a refresh reloads what is open).
 * `order` is `ascs` / `descs`; it is not a search, so a lazy tree stays lazy.
 */
export function useCrudRows<R extends Row = Row>(
  schema: CrudSchema<R>,
  params: Record<string, unknown> | undefined,
  page: { current: number; size: number },
  query: Record<string, unknown>,
  order: Record<string, string> = NO_ORDER,
) {
  const list = schema.listRoute ?? schema.listPath ?? 'list';
  const api = useMemo(() => crudApi(schema.base, list), [schema.base, list]);
  const mode = schema.tree ? (schema.tree.lazy ? 'lazy' : 'tree') : 'page';
  const base = ['crud', schema.base, listUrl(schema.base, list), params ?? {}] as const;
  const filters = useMemo(() => ({ ...params, ...query, ...order }), [params, query, order]);
  const searching = Object.keys(query).length > 0;

  const paged = useQuery({
    queryKey: [...base, 'page', page, query, order],
    queryFn: () => api.list<Row>({ ...filters, current: page.current, size: page.size }),
    placeholderData: keepPreviousData,
    enabled: mode === 'page',
  });
  const whole = useQuery({
    queryKey: [...base, 'tree', query, order],
    queryFn: () => api.all<Row>(filters),
    enabled: mode === 'tree',
  });
  // A search looks through the whole tree (the server answers every match when parentId is left out).
  const root = useQuery({
    queryKey: [...base, 'lazy', '0', query, order],
    queryFn: () => api.rows<Row>('lazy-list', searching ? filters : { ...filters, parentId: '0' }),
    enabled: mode === 'lazy',
  });
  const [expanded, setExpanded] = useState<string[]>([]);
  const children = useQueries({
    queries: (mode === 'lazy' ? expanded : []).map((id) => ({
      queryKey: [...base, 'lazy', id, order],
      queryFn: () => api.rows<Row>('lazy-list', { ...params, ...order, parentId: id }),
    })),
    combine: combineRows,
  });

  const wholeRows = useMemo(() => (whole.data ? pruneChildren(whole.data) : EMPTY), [whole.data]);
  const lazyRows = useMemo(() => {
    if (mode !== 'lazy' || !root.data) return EMPTY;
    const loaded = new Map<string, Row[] | undefined>(expanded.map((id, i) => [id, children[i]]));
    const build = (rows: Row[]): Row[] =>
      rows.map((r) => {
        if (!r.hasChildren) return r;
        const kids = loaded.get(r.id);
        return { ...r, children: kids ? build(kids) : [] };
      });
    return build(root.data);
  }, [mode, root.data, expanded, children]);

  const onExpand = useCallback((open: boolean, row: Row) => {
    setExpanded((keys) =>
      open ? (keys.includes(row.id) ? keys : [...keys, row.id]) : keys.filter((k) => k !== row.id),
    );
  }, []);

  if (mode === 'page') {
    return {
      rows: (paged.data?.records ?? EMPTY) as R[],
      total: paged.data?.total ?? 0,
      loading: paged.isFetching,
      expanded,
      onExpand,
    };
  }
  if (mode === 'tree')
    return { rows: wholeRows as R[], total: wholeRows.length, loading: whole.isFetching, expanded, onExpand };
  return { rows: lazyRows as R[], total: lazyRows.length, loading: root.isFetching, expanded, onExpand };
}
