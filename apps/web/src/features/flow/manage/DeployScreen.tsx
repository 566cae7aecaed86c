import { useMemo, useState } from 'react';
import { App, Card } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { flowApi } from '@atrium/contract';
import { CrudSearch } from '../../../components/crud/CrudSearch';
import { CrudTable } from '../../../components/crud/CrudTable';
import { CrudToolbar } from '../../../components/crud/CrudToolbar';
import { useCrudController } from '../../../components/crud/useCrudController';
import type { CrudContext, CrudSchema, Row } from '../../../components/crud/types';
import {
  baseOf,
  categoryField,
  flowCalls,
  refusal,
  StateTag,
  timeText,
  useCategories,
  type DefinitionRecord,
} from './common';
import { UploadDialog } from './UploadDialog';

/**
 * 流程部署 (docs/workflow.md "Screens"): every deployed version (filter by category or key); 挂起 / 激活
 * (`manager/change-state`, confirmed), 上传部署 (the upload dialog), 删除 (`manager/delete-deployment`: when
 * instances still run the server answers 409 saying how many; the screen then asks again and sends `cascade`).
 */

type R = DefinitionRecord & Row;

export function DeployScreen() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const categories = useCategories();
  const [uploading, setUploading] = useState(0);

  const schema = useMemo<CrudSchema<R>>(() => {
    const changeState = (d: DefinitionRecord, state: 'active' | 'suspend', ctx: CrudContext) =>
      modal.confirm({
        title: t(state === 'suspend' ? 'flowManage.confirmSuspend' : 'flowManage.confirmActivate', {
          name: d.name,
          version: d.version,
        }),
        okText: t('flowManage.ok'),
        cancelText: t('flowManage.cancel'),
        okButtonProps: { danger: state === 'suspend' },
        onOk: async () => {
          try {
            await flowCalls.changeState(d.id, state);
          } catch {
            return; // the http client showed why
          }
          void message.success(t('flowManage.stateChanged'));
          await ctx.refresh();
        },
      });
    const deleted = (a: { deployments: number; instancesEnded: number }) =>
      void message.success(
        a.instancesEnded
          ? t('flowManage.instancesEnded', { n: a.deployments, ended: a.instancesEnded })
          : t('flowManage.deploymentsDeleted', { n: a.deployments }),
      );
    const remove = (d: DefinitionRecord, ctx: CrudContext) =>
      modal.confirm({
        title: t('flowManage.confirmDeleteDeployment', { name: d.name, version: d.version }),
        okText: t('flowManage.ok'),
        cancelText: t('flowManage.cancel'),
        okButtonProps: { danger: true },
        onOk: async () => {
          try {
            deleted(await flowCalls.deleteDeployment([d.deploymentId], false));
          } catch (err) {
            const r = refusal(err);
            if (r.status === 409) askCascade(d, r.message, ctx);
            return;
          }
          await ctx.refresh();
        },
      });
    const askCascade = (d: DefinitionRecord, why: string, ctx: CrudContext) =>
      modal.confirm({
        title: t('flowManage.cascadeTitle'),
        content: (
          <div data-testid="flow-cascade">
            <p>{why}</p>
            <p>{t('flowManage.cascadeConfirm')}</p>
          </div>
        ),
        okText: t('flowManage.cascadeOk'),
        cancelText: t('flowManage.cancel'),
        okButtonProps: { danger: true },
        onOk: async () => {
          try {
            deleted(await flowCalls.deleteDeployment([d.deploymentId], true));
          } catch {
            return;
          }
          await ctx.refresh();
        },
      });
    return {
      base: baseOf(flowApi.managerList.path),
      listRoute: flowApi.managerList,
      title: 'flowManage.deployTitle',
      codes: { add: '', edit: '', delete: '', view: '' },
      create: false,
      readOnly: true,
      fields: [
        { name: 'key', label: 'flowManage.processKey', search: true, sort: true },
        { name: 'name', label: 'flowManage.processName', search: true, sort: true },
        categoryField<R>(categories),
        { name: 'version', label: 'flowManage.version', sort: true, width: 80, render: (v) => `v${String(v)}` },
        {
          name: 'suspensionState',
          label: 'flowManage.state',
          width: 90,
          search: true,
          kind: 'dict',
          options: [
            { value: 1, label: 'flowManage.active' },
            { value: 2, label: 'flowManage.suspended' },
          ],
          render: (v) => <StateTag state={Number(v)} />,
        },
        {
          name: 'deploymentTime',
          label: 'flowManage.deploymentTime',
          sort: true,
          render: (v) => timeText(v as string),
        },
        { name: 'resourceName', label: 'flowManage.resourceName' },
        { name: 'tenantId', label: 'flowManage.tenant', width: 90 },
      ],
      actions: [
        {
          code: 'deploy_upload',
          label: 'flowManage.upload',
          icon: <UploadOutlined />,
          onClick: () => setUploading((n) => n + 1),
        },
      ],
      rowActions: [
        {
          code: 'deploy_state',
          label: 'flowManage.suspend',
          when: (d) => d.suspensionState !== 2,
          onClick: ([d], ctx) => changeState(d, 'suspend', ctx),
        },
        {
          code: 'deploy_state',
          label: 'flowManage.activate',
          when: (d) => d.suspensionState === 2,
          onClick: ([d], ctx) => changeState(d, 'active', ctx),
        },
        {
          code: 'deploy_delete',
          label: 'flowManage.deleteDeployment',
          danger: true,
          onClick: ([d], ctx) => remove(d, ctx),
        },
      ],
      actionWidth: 170,
    };
  }, [categories, t, message, modal]);
  const c = useCrudController(schema);

  return (
    <Card title={t(schema.title)} data-testid="flow-deploy-page">
      <CrudSearch c={c} />
      <CrudToolbar c={c} />
      <CrudTable c={c} />
      {uploading > 0 && (
        <UploadDialog
          key={uploading}
          onClose={() => setUploading(0)}
          onDone={() => {
            setUploading(0);
            void c.refresh();
          }}
        />
      )}
    </Card>
  );
}
