import { useCallback, useMemo } from 'react';
import { Grid, Table, type TableColumnsType, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '@atrium/contract';
import { CellValue, RowActions, type RowButton } from './cells';
import { inState, type CrudController } from './useCrudController';
import type { Row } from './types';

/**
 * The table: columns from the fields (sortable where `sort`), row buttons by permission code (lifecycle actions
 * only in their states), selection, paging with the product's sizes, or a (lazy) tree.
 */

/** A textarea shown as a column: cut to the column's width (default 320 px) on one line. */
const longText = (width: number | undefined) =>
  ({ maxWidth: width ?? 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }) as const;

export function CrudTable<R extends Row>({ c }: { c: CrudController<R> }) {
  const { t } = useTranslation();
  const { schema, can, sources, sort, onRowAction } = c;
  const { fields, codes, tree, rowActions, lifecycle, actionWidth } = schema;

  const buttons = useMemo<RowButton[]>(
    () => [
      ...(can[codes.view] ? [{ key: '_view', label: t('crud.view') }] : []),
      // A read-only schema offers no 编辑 / 删除, whatever codes the user holds.
      ...(!schema.readOnly && can[codes.edit] ? [{ key: '_edit', label: t('crud.edit') }] : []),
      ...(!schema.readOnly && can[codes.delete] ? [{ key: '_delete', label: t('crud.delete'), danger: true }] : []),
      ...(tree && schema.create !== false && can[codes.add] ? [{ key: '_child', label: t('crud.addChild') }] : []),
      ...(lifecycle ?? [])
        .filter((a) => can[a.code])
        .map((a) => ({ key: `a:${a.name}`, label: t(a.label), danger: a.danger, when: (r: Row) => inState(a, r) })),
      ...(rowActions ?? [])
        .filter((a) => !a.code || can[a.code])
        .map((a) => ({
          key: `x:${a.label}`,
          label: t(a.label),
          danger: a.danger,
          when: a.when ? (r: Row) => a.when!(r as R) : undefined,
        })),
    ],
    [can, codes, tree, rowActions, lifecycle, t, schema.create, schema.readOnly],
  );

  // A phone (below antd's md, 768 px): the actions column scrolls with the rest — fixed at the right it would cover
  // nearly the whole width and hide the record's own columns (docs/web.md "Search form").
  const wide = Grid.useBreakpoint().md !== false;
  const columns = useMemo<TableColumnsType<R>>(
    () => [
      ...fields
        .filter((f) => f.column !== false)
        .map((f) => ({
          title: t(f.label),
          dataIndex: f.name,
          key: f.name,
          width: f.width,
          ellipsis: true,
          sorter: f.sort ? true : undefined,
          sortOrder: f.sort ? (sort?.field === f.name ? sort.order : null) : undefined,
          render: (v: unknown, r: R) =>
            f.kind === 'textarea' ? (
              // A long text opted into the table (ui.column) keeps its column's width: one line, the rest on hover.
              <div style={longText(f.width)} title={typeof v === 'string' ? v : undefined}>
                <CellValue f={f} value={v} row={r} labels={sources.labels[f.name]} t={t} />
              </div>
            ) : (
              <CellValue f={f} value={v} row={r} labels={sources.labels[f.name]} t={t} />
            ),
        })),
      ...(buttons.length
        ? [
            {
              title: t('crud.actions'),
              key: '_actions',
              width: actionWidth ?? Math.max(120, buttons.length * 56),
              fixed: wide ? ('right' as const) : undefined,
              render: (_: unknown, r: R) => <RowActions row={r} buttons={buttons} onAction={onRowAction} />,
            },
          ]
        : []),
    ],
    [fields, sources.labels, buttons, onRowAction, actionWidth, sort, t, wide],
  );

  const { selected, setSelected, page, setPage, total, expanded, onExpand, setSort } = c;
  const rowSelection = useMemo<TableProps<R>['rowSelection']>(
    () => ({ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)), checkStrictly: true }),
    [selected, setSelected],
  );
  const pagination = useMemo<TableProps<R>['pagination']>(
    () =>
      tree
        ? false
        : {
            current: page.current,
            pageSize: page.size,
            total,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            showTotal: (n: number) => t('crud.total', { n }),
            onChange: (current: number, size: number) => setPage({ current, size }),
          },
    [tree, page, total, setPage, t],
  );
  const expandable = useMemo<TableProps<R>['expandable']>(
    () => (tree?.lazy ? { expandedRowKeys: expanded, onExpand } : undefined),
    [tree, expanded, onExpand],
  );
  const onRowClick = schema.onRowClick;
  const onRow = useCallback((r: R) => ({ onClick: () => onRowClick?.(r) }), [onRowClick]);
  const activeId = schema.activeRowId;
  const rowClassName = useCallback((r: R) => (r.id === activeId ? 'crud-row-active' : ''), [activeId]);
  const onChange = useCallback<NonNullable<TableProps<R>['onChange']>>(
    (_p, _f, sorter, extra) => {
      if (extra.action !== 'sort') return;
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const field = String(s?.columnKey ?? s?.field ?? '');
      setSort(s?.order && field ? { field, order: s.order } : null);
    },
    [setSort],
  );

  return (
    <Table<R>
      rowKey="id"
      size="middle"
      loading={c.loading}
      columns={columns}
      dataSource={c.rows}
      scroll={{ x: 'max-content' }}
      // A phone's empty table shows no header row: wider than the card, it would only run past it (the rows scroll
      // sideways once there are some).
      showHeader={wide || c.rows.length > 0}
      rowSelection={rowSelection}
      pagination={pagination}
      expandable={expandable}
      onRow={onRow}
      onChange={onChange}
      rowClassName={rowClassName}
    />
  );
}
