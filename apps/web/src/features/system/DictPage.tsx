import { useMemo, useState } from 'react';
import { Card, Col, Row as Grid, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import CrudPage from '../../components/crud/CrudPage';
import type { CrudField, CrudSchema, Row } from '../../components/crud/types';
import i18n from '../../i18n';
import EmptyState from '../../components/EmptyState';

/** docs/product.md "Constants": dictionary dialog width and the action column widths of the two tables. */
export const DICT_DIALOG_WIDTH = 880;
export const DICT_PARENT_MENU_WIDTH = 250;
export const DICT_CHILD_MENU_WIDTH = 300;

const sealedTag = (v: unknown) =>
  Number(v) === 1 ? <Tag color="red">{i18n.t('common.yes')}</Tag> : <Tag>{i18n.t('common.no')}</Tag>;

const common = {
  sort: {
    name: 'sort',
    label: 'dict.sort',
    type: 'number',
    required: true,
    requiredMessage: 'dict.sortRequired',
    default: 0,
    width: 80,
  },
  isSealed: {
    name: 'isSealed',
    label: 'dict.isSealed',
    type: 'switch',
    required: true,
    requiredMessage: 'dict.sealedRequired',
    default: 0,
    width: 90,
    render: sealedTag,
  },
  remark: { name: 'remark', label: 'dict.remark', type: 'textarea', column: false },
} satisfies Record<string, CrudField>;

const parentFields: CrudField[] = [
  { name: 'code', label: 'dict.code', required: true, requiredMessage: 'dict.codeRequired', search: true },
  { name: 'dictValue', label: 'dict.dictValue', required: true, requiredMessage: 'dict.valueRequired', search: true },
  common.sort,
  common.isSealed,
  common.remark,
];

const childFields = (base: string): CrudField[] => [
  // docs/product.md "Validation": the child's code and parent are not editable when adding or editing.
  { name: 'code', label: 'dict.code', editable: false, column: false },
  { name: 'dictValue', label: 'dict.dictValue', required: true, requiredMessage: 'dict.valueRequired' },
  { name: 'dictValueEn', label: 'dict.dictValueEn' },
  {
    name: 'parentId',
    label: 'dict.parentId',
    type: 'tree',
    treeUrl: `${base}/tree?code=DICT`,
    editable: false,
    column: false,
  },
  { name: 'dictKey', label: 'dict.dictKey', required: true, requiredMessage: 'dict.keyRequired' },
  common.sort,
  common.isSealed,
  common.remark,
];

/**
 * Dictionary management (docs/product.md "Screens and routes", "Records", "Validation"): a parent table (one row per dictionary) and the child tree table of the
 * picked parent. Horizontal: side by side (system dictionaries); vertical: parent above child (business ones).
 */
function DictPage({ biz, layout }: { biz: boolean; layout: 'horizontal' | 'vertical' }) {
  const { t } = useTranslation();
  const base = biz ? '/api/blade-system/dict-biz' : '/api/blade-system/dict';
  const code = biz ? 'dictbiz' : 'dict';
  const codes = useMemo(
    () => ({ add: `${code}_add`, edit: `${code}_edit`, delete: `${code}_delete`, view: `${code}_view` }),
    [code],
  );
  const [parent, setParent] = useState<Row | null>(null);

  const parentSchema = useMemo<CrudSchema>(
    () => ({
      base,
      listPath: 'parent-list',
      title: biz ? 'dict.bizTitle' : 'dict.title',
      codes,
      fields: parentFields,
      dialogWidth: DICT_DIALOG_WIDTH,
      actionWidth: DICT_PARENT_MENU_WIDTH,
      onRowClick: setParent,
      activeRowId: parent?.id,
      rowActions: [{ label: 'dict.config', onClick: ([row]) => setParent(row) }],
    }),
    [base, biz, codes, parent?.id],
  );

  const children = useMemo(() => childFields(base), [base]);
  const childSchema = useMemo<CrudSchema | null>(
    () =>
      parent
        ? {
            base,
            listPath: 'child-list',
            title: 'dict.childTitle',
            codes,
            fields: children,
            tree: {},
            dialogWidth: DICT_DIALOG_WIDTH,
            actionWidth: DICT_CHILD_MENU_WIDTH,
            addDefaults: (under) => ({ code: parent.code, parentId: under?.id ?? parent.id }),
          }
        : null,
    [base, codes, children, parent],
  );
  const childParams = useMemo(() => (parent ? { parentId: parent.id } : undefined), [parent]);

  const parentTable = <CrudPage schema={parentSchema} />;
  const childTable = childSchema ? (
    <div data-testid="dict-child">
      <CrudPage
        key={parent!.id}
        schema={childSchema}
        params={childParams}
        extra={<Tag color="blue">{`${String(parent!.dictValue ?? '')} · ${String(parent!.code ?? '')}`}</Tag>}
      />
    </div>
  ) : (
    <Card title={t('dict.childTitle')} data-testid="dict-child">
      <EmptyState description={t('dict.pickParent')} />
    </Card>
  );

  if (layout === 'vertical') {
    return (
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        {parentTable}
        {childTable}
      </div>
    );
  }
  return (
    <Grid gutter={12}>
      <Col xs={24} xl={12}>
        {parentTable}
      </Col>
      <Col xs={24} xl={12}>
        {childTable}
      </Col>
    </Grid>
  );
}

/** /dict-horizontal/index: system dictionaries, parent and child side by side. */
export function DictHorizontalPage() {
  return <DictPage biz={false} layout="horizontal" />;
}

/** /dict-vertical/index: business dictionaries, parent above child. */
export function DictVerticalPage() {
  return <DictPage biz layout="vertical" />;
}
