import { useCallback, useMemo, useState } from 'react';
import { Card, Col, Empty, Row as Grid, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { system, type ResourceDef } from '@atrium/contract';
import type { dictFields } from '@atrium/contract/resources/system/dict';
import CrudPage from '../../components/crud/CrudPage';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import type { CrudField, CrudSchema, Row } from '../../components/crud/types';

/** docs/product.md "Constants": the action column widths of the two tables. */
export const DICT_PARENT_MENU_WIDTH = 250;
export const DICT_CHILD_MENU_WIDTH = 300;

type DictDef = ResourceDef<ReturnType<typeof dictFields>>;

/** A dictionary (the parent row) lists its own code and name; key, English name and parent belong to its entries. */
const PARENT_FIELDS = new Set(['code', 'dictValue', 'sort', 'isSealed', 'remark', 'createTime']);

/** The list calls of a dictionary's two tables: the system one's (platform) or a tenant's business one's. */
const listsOf = (def: DictDef) =>
  def.scope === 'tenant'
    ? { parents: system.bizDictParentList, children: system.bizDictChildList }
    : { parents: system.dictParentList, children: system.dictChildList };

const parentSchema = (s: CrudSchema, def: DictDef): CrudSchema => ({
  ...s,
  listRoute: listsOf(def).parents,
  // One row per dictionary: a flat, paged table (the entries are the child table's tree).
  tree: undefined,
  actionWidth: DICT_PARENT_MENU_WIDTH,
  fields: s.fields.filter((f) => PARENT_FIELDS.has(f.name)),
});

/** docs/product.md "Validation": an entry's code and parent come from its dictionary, not editable. */
const childField = (f: CrudField): CrudField => {
  const plain = { ...f, search: undefined };
  return f.name === 'code' || f.name === 'parentId' ? { ...plain, editable: false, column: false } : plain;
};

/**
 * Dictionary management from a definition (docs/product.md "Screens and routes", "Records", "Validation"): the
 * parent table (one row per dictionary) and the child tree table of the picked parent. Horizontal: side by side
 * (system dictionaries); vertical: parent above child (business ones).
 */
export default function DictScreen({ def, layout }: { def: DictDef; layout: 'horizontal' | 'vertical' }) {
  const { t } = useTranslation();
  const [parent, setParent] = useState<Row | null>(null);

  const adjustParent = useCallback(
    (s: CrudSchema): CrudSchema => ({
      ...parentSchema(s, def),
      onRowClick: setParent,
      activeRowId: parent?.id,
      rowActions: [{ label: 'dict.config', onClick: ([row]) => setParent(row) }],
    }),
    [parent?.id, def],
  );
  const adjustChild = useCallback(
    (s: CrudSchema): CrudSchema => ({
      ...s,
      listRoute: listsOf(def).children,
      title: 'dict.childTitle',
      tree: {},
      actionWidth: DICT_CHILD_MENU_WIDTH,
      fields: s.fields.filter((f) => f.name !== 'createTime').map(childField),
      addDefaults: (under) => (parent ? { code: parent.code, parentId: under?.id ?? parent.id } : {}),
    }),
    [parent, def],
  );
  const parents = useResourceSchema(def, adjustParent);
  const children = useResourceSchema(def, adjustChild);
  const childParams = useMemo(() => (parent ? { parentId: parent.id } : undefined), [parent]);

  const parentTable = <CrudPage schema={parents} />;
  const childTable = parent ? (
    <div data-testid="dict-child">
      <CrudPage
        key={parent.id}
        schema={children}
        params={childParams}
        extra={<Tag color="blue">{`${String(parent.dictValue ?? '')} · ${String(parent.code ?? '')}`}</Tag>}
      />
    </div>
  ) : (
    <Card title={t('dict.childTitle')} data-testid="dict-child">
      <Empty description={t('dict.pickParent')} />
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
