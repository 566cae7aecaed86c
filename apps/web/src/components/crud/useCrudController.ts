import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE } from '@atrium/contract';
import { crudApi, errorOf, type FieldError } from '../../api/crud';
import { post } from '../../api/http';
import { useSession } from '../../stores/session';
import { fromForm, searchParams, toForm } from './fieldTypes';
import { useCrudRows } from './rows';
import { useFieldSources } from './sources';
import { catalogue, langOf } from './texts';
import type { CrudContext, CrudSchema, LifecycleAction, Mode, Row } from './types';

export type Sort = { field: string; order: 'ascend' | 'descend' };
/** One opening of the record dialog: `seq` keys the dialog component, so each opening starts afresh. */
export type DialogState<R extends Row = Row> = { seq: number; mode: Mode; row?: R; initial: Record<string, unknown> };
/** One opening of a lifecycle action's input dialog. */
export type ActingState<R extends Row = Row> = { seq: number; action: LifecycleAction; rows: R[] };
export type SaveResult = { ok: true } | { ok: false; status?: number; fields: FieldError[] };

export const inState = (a: LifecycleAction, row: Row) =>
  !a.from || a.from.map(String).includes(String(row[a.stateField]));

/**
 * The state and work of a CRUD screen, without its views (docs/web.md "CRUD engine"): paging, search, sorting,
 * selection, the record dialog, save / remove, lifecycle actions, refresh. `params` are fixed filters (e.g. the
 * department picked beside the user table). The views (CrudSearch, CrudToolbar, CrudTable, CrudDialog) read it.
 */
export function useCrudController<R extends Row = Row>(schema: CrudSchema<R>, params?: Record<string, unknown>) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const list = schema.listRoute ?? schema.listPath;
  const api = useMemo(() => crudApi(schema.base, list), [schema.base, list]);
  const can = useSession((s) => s.permission);
  const queryClient = useQueryClient();
  const { fields } = schema;
  const [query, setQuery] = useState<Record<string, unknown>>({});
  const [sort, setSortState] = useState<Sort | null>(null);
  const [page, setPage] = useState({ current: 1, size: schema.pageSize ?? DEFAULT_PAGE_SIZE });
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<DialogState<R> | null>(null);
  const [acting, setActing] = useState<ActingState<R> | null>(null);
  // Every opening gets the next number; an opening still loading its record loses to a later one.
  const openings = useRef(0);

  // New fixed filters (another department, another dictionary): back to the first page, nothing selected.
  const paramsKey = JSON.stringify(params ?? {});
  const [seenParams, setSeenParams] = useState(paramsKey);
  if (seenParams !== paramsKey) {
    setSeenParams(paramsKey);
    setPage((p) => ({ ...p, current: 1 }));
    setSelected([]);
  }

  const sources = useFieldSources(fields);
  const order = useMemo<Record<string, string>>(
    () => (sort ? { [sort.order === 'ascend' ? 'ascs' : 'descs']: sort.field } : {}),
    [sort],
  );
  const { rows, total, loading, expanded, onExpand } = useCrudRows<R>(schema, params, page, query, order);

  const refresh = useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['crud', schema.base] }),
      queryClient.invalidateQueries({ queryKey: ['tree'] }),
      queryClient.invalidateQueries({ queryKey: ['options'] }),
    ]);
  }, [queryClient, schema.base]);

  const search = (values: Record<string, unknown>) => {
    setQuery(searchParams(fields, values));
    setPage((p) => ({ ...p, current: 1 }));
  };
  const resetSearch = () => {
    setQuery({});
    setPage((p) => ({ ...p, current: 1 }));
  };
  const setSort = useCallback((next: Sort | null) => {
    setSortState(next);
    setPage((p) => ({ ...p, current: 1 }));
  }, []);

  const open = async (mode: Mode, row?: R, defaults?: Record<string, unknown>) => {
    const seq = ++openings.current;
    if (row) {
      let record: R;
      try {
        record = await api.detail<R>(row.id);
      } catch {
        return; // the http client showed why
      }
      if (seq === openings.current) setDialog({ seq, mode, row, initial: toForm(fields, record) });
      return;
    }
    const initial: Record<string, unknown> = {};
    for (const f of fields) if (f.default !== undefined) initial[f.name] = f.default;
    setDialog({ seq, mode, initial: toForm(fields, { ...initial, ...schema.addDefaults?.(), ...defaults }) });
  };
  /** Forgets a dialog once it has closed (a later opening is left alone). */
  const close = (seq: number) => setDialog((d) => (d?.seq === seq ? null : d));

  /** Sends a dialog's values: the new record, or the dialog's own row under its id and version. */
  const save = async (d: DialogState<R>, values: Record<string, unknown>): Promise<SaveResult> => {
    const body = fromForm(fields, values);
    const row = d.row;
    try {
      const saved = row
        ? await api.submit<Record<string, unknown>>(
            { ...body, id: row.id, version: values.version ?? row.version },
            schema.updatePath,
          )
        : await api.submit<Record<string, unknown>>(body, schema.createPath);
      message.success(t(row ? 'crud.updated' : 'crud.added'));
      schema.onSaved?.(saved ?? {}, row ? 'edit' : 'add');
      void refresh();
      return { ok: true };
    } catch (err) {
      return { ok: false, ...errorOf(err) };
    }
  };
  /** A record as stored now, as form values (after a stale save). */
  const reload = async (row: R) => {
    const values = toForm(fields, await api.detail<R>(row.id));
    await refresh();
    return values;
  };

  const remove = (ids: string[]) => {
    if (!ids.length) {
      message.warning(t('crud.selectOne'));
      return;
    }
    modal.confirm({
      title: t('crud.confirmDelete'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await api.remove(ids);
        } catch {
          // Refused (e.g. a role still in use): the http client showed the server's message; the confirm closes.
          return;
        }
        message.success(t('crud.deleted'));
        setSelected([]);
        await refresh();
      },
    });
  };

  /** Posts a lifecycle action; never rejects (a refusal was shown by the http client). */
  const call = async (action: LifecycleAction, targets: R[], input: Record<string, unknown> = {}) => {
    const body = action.many
      ? { [action.idField]: targets.map((r) => r.id), ...input }
      : { [action.idField]: targets[0].id, version: targets[0].version, ...input };
    let answer: unknown;
    try {
      answer = await post(`${schema.base}/${action.path}`, body);
    } catch {
      await refresh(); // the records may have moved on; show where they are
      return false;
    }
    message.success(t(action.done));
    if (action.many) setSelected([]);
    action.onDone?.(answer, targets);
    await refresh();
    return true;
  };
  const act = (action: LifecycleAction, targets: R[]) => {
    if (!targets.length) {
      message.warning(t('crud.selectOne'));
      return;
    }
    if (!targets.every((r) => inState(action, r))) {
      message.warning(action.refused ? t(action.refused) : catalogue('stateRefused', langOf(i18n.language)));
      return;
    }
    if (action.open) action.open(targets, latest.current.ctx);
    else if (action.input?.length) setActing({ seq: ++openings.current, action, rows: targets });
    else if (action.confirm) {
      modal.confirm({
        title: t(action.confirm),
        okText: t('common.ok'),
        cancelText: t('common.cancel'),
        okButtonProps: { danger: action.danger },
        onOk: () => call(action, targets),
      });
    } else void call(action, targets);
  };
  const closeAction = (seq: number) => setActing((a) => (a?.seq === seq ? null : a));

  const selectedRows = () => {
    const all: R[] = [];
    const walk = (list: Row[]) =>
      list.forEach((r) => {
        all.push(r as R);
        if (r.children) walk(r.children);
      });
    walk(rows);
    return all.filter((r) => selected.includes(r.id));
  };

  const ctx: CrudContext = { refresh, add: (values) => void open('add', undefined, values) };
  // Row buttons call through a ref, so the memoised columns and cells never see a new handler.
  const latest = useRef({ open, remove, act, ctx, schema });
  useLayoutEffect(() => {
    latest.current = { open, remove, act, ctx, schema };
  });
  const onRowAction = useCallback((key: string, row: Row) => {
    const { open: o, remove: r, act: a, ctx: c, schema: s } = latest.current;
    const target = row as R;
    if (key === '_view' || key === '_edit') void o(key === '_view' ? 'view' : 'edit', target);
    else if (key === '_delete') r([row.id]);
    else if (key === '_child')
      void o('add', undefined, s.addDefaults?.(target) ?? { [s.tree?.parentField ?? 'parentId']: row.id });
    else if (key.startsWith('a:')) {
      const action = s.lifecycle?.find((x) => `a:${x.name}` === key);
      if (action) a(action, [target]);
    } else s.rowActions?.find((x) => `x:${x.label}` === key)?.onClick([target], c);
  }, []);

  return {
    schema,
    can,
    sources,
    rows,
    total,
    loading,
    expanded,
    onExpand,
    page,
    setPage,
    query,
    search,
    resetSearch,
    sort,
    setSort,
    selected,
    setSelected,
    selectedRows,
    dialog,
    open,
    close,
    save,
    reload,
    acting,
    act,
    call,
    closeAction,
    remove,
    refresh,
    ctx,
    onRowAction,
  };
}

export type CrudController<R extends Row = Row> = ReturnType<typeof useCrudController<R>>;
