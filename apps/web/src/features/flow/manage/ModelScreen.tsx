import { useCallback, useMemo, useState } from 'react';
import { App, Card, Tag } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { flowApi } from '@atrium/contract';
import { CrudSearch } from '../../../components/crud/CrudSearch';
import { CrudTable } from '../../../components/crud/CrudTable';
import { CrudToolbar } from '../../../components/crud/CrudToolbar';
import { useCrudController } from '../../../components/crud/useCrudController';
import type { CrudContext, CrudSchema, Row } from '../../../components/crud/types';
import { baseOf, categoryField, flowCalls, useCategories, type ModelRecord } from './common';
import { ModelDeployDialog } from './ModelDeployDialog';
import { ModelEditor } from './ModelEditor';

/**
 * 模型管理 (docs/workflow.md "Screens"): the tenant's models (filter by key or name, sorted, paged); 新增 / 编辑 /
 * 查看 open the modeler in a drawer, 删除 removes (confirmed, `model/remove`), 部署 deploys a new
 * version. Buttons by the menu's codes.
 */

type R = ModelRecord & Row;
type Editing = { seq: number; model: ModelRecord | null; readOnly: boolean };

export function ModelScreen() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const categories = useCategories();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deploying, setDeploying] = useState<{ seq: number; model: ModelRecord } | null>(null);
  const edit = (model: ModelRecord | null, readOnly = false) =>
    setEditing((e) => ({ seq: (e?.seq ?? 0) + 1, model, readOnly }));

  /** 删除 of one model (a row) or the selection: confirmed, `model/remove`; its deployed versions stay. */
  const remove = useCallback(
    (rows: ModelRecord[], ctx: CrudContext) =>
      modal.confirm({
        title:
          rows.length === 1
            ? t('flowManage.confirmRemoveModel', { name: rows[0].name })
            : t('flowManage.confirmRemoveModels', { n: rows.length }),
        okText: t('flowManage.ok'),
        cancelText: t('flowManage.cancel'),
        okButtonProps: { danger: true },
        onOk: async () => {
          try {
            await flowCalls.modelRemove(rows.map((r) => r.id));
          } catch {
            return; // the http client showed why
          }
          void message.success(t('flowManage.removed'));
          await ctx.refresh();
        },
      }),
    [modal, message, t],
  );
  const schema = useMemo<CrudSchema<R>>(
    () => ({
      base: baseOf(flowApi.modelList.path),
      listRoute: flowApi.modelList,
      title: 'flowManage.modelTitle',
      // 新增 / 编辑 / 查看 open the modeler (below), not the engine's record dialog.
      codes: { add: 'model_add', edit: '', delete: '', view: '' },
      create: false,
      fields: [
        { name: 'modelKey', label: 'flowManage.modelKey', search: true, sort: true },
        { name: 'name', label: 'flowManage.modelName', search: true, sort: true },
        categoryField<R>(categories),
        { name: 'version', label: 'flowManage.version', width: 90 },
        {
          name: 'deployedVersion',
          label: 'flowManage.deployedVersion',
          width: 130,
          render: (v) => (v == null ? <Tag>{t('flowManage.notDeployed')}</Tag> : <Tag color="blue">v{String(v)}</Tag>),
        },
        { name: 'updateTime', label: 'flowManage.updateTime', kind: 'datetime', sort: true },
      ],
      actions: [
        { code: 'model_add', label: 'flowManage.add', icon: <PlusOutlined />, onClick: () => edit(null) },
        {
          code: 'model_delete',
          label: 'flowManage.remove',
          icon: <DeleteOutlined />,
          danger: true,
          needsSelection: true,
          onClick: (rows, ctx) => remove(rows, ctx),
        },
      ],
      rowActions: [
        { code: 'model_view', label: 'flowManage.view', onClick: ([m]) => edit(m, true) },
        { code: 'model_edit', label: 'flowManage.edit', onClick: ([m]) => edit(m) },
        {
          code: 'model_deploy',
          label: 'flowManage.deploy',
          onClick: ([m]) => setDeploying((d) => ({ seq: (d?.seq ?? 0) + 1, model: m })),
        },
        { code: 'model_delete', label: 'flowManage.remove', danger: true, onClick: (rows, ctx) => remove(rows, ctx) },
      ],
      actionWidth: 250,
    }),
    [categories, t, remove],
  );
  const c = useCrudController(schema);

  return (
    <Card title={t(schema.title)} data-testid="flow-model-page">
      <CrudSearch c={c} />
      <CrudToolbar c={c} />
      <CrudTable c={c} />
      {editing && (
        <ModelEditor
          key={editing.seq}
          model={editing.model}
          readOnly={editing.readOnly}
          onClose={() => setEditing(null)}
          onSaved={() => void c.refresh()}
        />
      )}
      {deploying && (
        <ModelDeployDialog
          key={deploying.seq}
          model={deploying.model}
          onClose={() => setDeploying(null)}
          onDone={() => {
            setDeploying(null);
            void c.refresh();
          }}
        />
      )}
    </Card>
  );
}
