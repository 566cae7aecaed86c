import type { ReactNode } from 'react';
import { Button, Tooltip } from 'antd';
import type { TableColumnType } from 'antd';
import type { TFunction } from 'i18next';
import type { Task } from './api';
import { showTime } from './WorkList';

/**
 * The columns the 我的事务 lists share (docs/workflow.md "Screens: my work and leave"), so each screen names only what
 * it adds. A column the server sorts on is keyed by the field its list rules name (`ascs` / `descs`).
 */

type Column<R> = TableColumnType<R>;

/** A column the server sorts on. */
export const sorted = <R,>(title: string, field: keyof R & string, render?: Column<R>['render']): Column<R> => ({
  title,
  dataIndex: field,
  key: field,
  sorter: true,
  ...(render ? { render } : {}),
});

/** A time column the server sorts on (local, to the minute). */
export const timeColumn = <R,>(title: string, field: keyof R & string): Column<R> =>
  sorted<R>(title, field, (v: string | null) => showTime(v));

/** 任务名称 and 流程名称 of a task list. */
export const taskColumns = (t: TFunction): Column<Task>[] => [
  sorted<Task>(t('flowWork.taskName'), 'taskName'),
  sorted<Task>(t('flowWork.processName'), 'processDefinitionName'),
];

/** 任务名称, 流程名称, 申请人 (the starter's name, else the id) and 创建时间 of an open task. */
export const openTaskColumns = (t: TFunction): Column<Task>[] => [
  ...taskColumns(t),
  { title: t('flowWork.starter'), dataIndex: 'startUserName', render: (n: string | null, r) => n ?? r.startUser },
  timeColumn<Task>(t('flowWork.createTime'), 'createTime'),
];

/** The row actions column. */
export const actionsColumn = <R,>(t: TFunction, render: (row: R) => ReactNode): Column<R> => ({
  title: t('flowWork.actions'),
  key: 'actions',
  render: (_: unknown, r) => render(r),
});

/**
 * A row's link to another screen: the button when the screen has an address; without one, nothing — or, given
 * `missing` (why there is none), the button disabled with that reason on hover.
 */
export function RouteButton({
  to,
  label,
  missing,
  go,
}: {
  to: string | null;
  label: string;
  missing?: string;
  go: (to: string) => void;
}) {
  if (!to && !missing) return null;
  const button = (
    <Button type="link" size="small" disabled={!to} onClick={() => to && go(to)}>
      {label}
    </Button>
  );
  return to ? (
    button
  ) : (
    <Tooltip title={missing}>
      <span>{button}</span>
    </Tooltip>
  );
}
