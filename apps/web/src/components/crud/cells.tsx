import { memo, type ReactNode } from 'react';
import { Button, Space } from 'antd';
import type { TFunction } from 'i18next';
import i18n from '../../i18n';
import { fieldType } from './fieldTypes';
import type { CrudField, Row } from './types';

/** Render counts of the memoised cells; the 200-row test reads them. */
export const renderStats = { cells: 0, actions: 0 };

function text(f: CrudField, value: unknown, row: Row, t: TFunction, labels?: Map<string, string>): ReactNode {
  if (f.render) return f.render(value, row);
  if (f.display) return String(row[f.display] ?? '');
  if (f.english && i18n.language === 'en' && row[f.english]) return String(row[f.english]);
  if (value === null || value === undefined || value === '') return '';
  const cell = fieldType(f).cell;
  if (cell) return cell(value, { f, row, labels, t });
  const parts = Array.isArray(value) ? value : f.multiple && typeof value === 'string' ? value.split(',') : [value];
  if (labels) return parts.map((v) => labels.get(String(v)) ?? String(v)).join(', ');
  return parts.map(String).join(', ');
}

/**
 * One table cell. Memoised on (field, value, row, labels, t): the page re-rendering with the same data (a
 * selection, a dialog opening) does not re-render 200 rows of cells; a new language does.
 */
export const CellValue = memo(function CellValue({
  f,
  value,
  row,
  labels,
  t,
}: {
  f: CrudField;
  value: unknown;
  row: Row;
  labels?: Map<string, string>;
  t: TFunction;
}) {
  renderStats.cells += 1;
  return <>{text(f, value, row, t, labels)}</>;
});

/** A row button; `when` hides it on rows it does not apply to (a lifecycle action outside its states). */
export type RowButton = { key: string; label: string; danger?: boolean; when?: (row: Row) => boolean };

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
      {buttons
        .filter((b) => !b.when || b.when(row))
        .map((b) => (
          <Button key={b.key} type="link" size="small" danger={b.danger} onClick={() => onAction(b.key, row)}>
            {b.label}
          </Button>
        ))}
    </Space>
  );
});
