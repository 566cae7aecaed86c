import { memo, type ReactNode } from 'react';
import { Button, Space } from 'antd';
import dayjs from 'dayjs';
import { DATE_FORMAT, DAY_FORMAT } from './FieldInput';
import { menuIcon } from '../../layout/icons';
import type { CrudField, Row } from './types';

/** Render counts of the memoised cells; the 200-row test reads them. */
export const renderStats = { cells: 0, actions: 0 };

function text(f: CrudField, value: unknown, row: Row, labels?: Map<string, string>): ReactNode {
  if (f.render) return f.render(value, row);
  if (f.display) return String(row[f.display] ?? '');
  if (value === null || value === undefined || value === '') return '';
  if (f.type === 'icon')
    return (
      <Space size={6}>
        {menuIcon(String(value))}
        {String(value)}
      </Space>
    );
  if (f.type === 'date')
    return dayjs(value as string).isValid()
      ? dayjs(value as string).format(f.dateOnly ? DAY_FORMAT : DATE_FORMAT)
      : String(value);
  const parts = Array.isArray(value) ? value : f.multiple && typeof value === 'string' ? value.split(',') : [value];
  if (labels) return parts.map((v) => labels.get(String(v)) ?? String(v)).join(', ');
  return parts.map(String).join(', ');
}

/**
 * One table cell. Memoised on (field, value, row, labels): the page re-rendering with the same data (a selection,
 * a dialog opening) does not re-render 200 rows of cells.
 */
export const CellValue = memo(function CellValue({
  f,
  value,
  row,
  labels,
}: {
  f: CrudField;
  value: unknown;
  row: Row;
  labels?: Map<string, string>;
}) {
  renderStats.cells += 1;
  return <>{text(f, value, row, labels)}</>;
});

export type RowButton = { key: string; label: string; danger?: boolean };

/** The action buttons of one row; `onAction` must be stable. */
export const RowActions = memo(function RowActions({
  row,
  buttons,
  onAction,
}: {
  row: Row;
  buttons: RowButton[];
  onAction: (key: string, row: Row) => void;
}) {
  renderStats.actions += 1;
  return (
    <Space size={0} wrap onClick={(e) => e.stopPropagation()}>
      {buttons.map((b) => (
        <Button key={b.key} type="link" size="small" danger={b.danger} onClick={() => onAction(b.key, row)}>
          {b.label}
        </Button>
      ))}
    </Space>
  );
});
