import { useState } from 'react';
import { Alert, App, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTabScope } from '../../../layout/tabScope';
import { CategorySelect, flowCalls, refusal, TenantSelect, usePlatform, type ModelRecord } from './common';

/**
 * 部署 of a model: its category (prefilled from the model) and, for the platform administrator, the tenants to
 * deploy into (none: the platform's own). The answer's new version is shown; a model the deploy check refuses
 * (400 naming the element) stays in the dialog.
 */
export function ModelDeployDialog({
  model,
  onClose,
  onDone,
}: {
  model: ModelRecord;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const scope = useTabScope();
  const platform = usePlatform();
  const [form] = Form.useForm<{ category?: string; tenantIds?: string[] }>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');

  const deploy = async () => {
    let values: Awaited<ReturnType<typeof form.validateFields>>;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is missing
    }
    setBusy(true);
    setProblem('');
    try {
      const tenantIds = platform && values.tenantIds?.length ? values.tenantIds : undefined;
      const answer = await flowCalls.modelDeploy({ modelId: model.id, category: values.category, tenantIds });
      const version = Math.max(0, ...answer.definitions.map((d) => d.version));
      const n = new Set(answer.definitions.map((d) => d.tenantId)).size;
      void message.success(
        t(n > 1 ? 'flowManage.deployedMany' : 'flowManage.deployed', { name: model.name, version, n }),
      );
      onDone();
    } catch (err) {
      const r = refusal(err);
      if (r.status === 400) setProblem(r.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('flowManage.deployModel', { name: model.name })}
      okText={t('flowManage.deploy')}
      cancelText={t('flowManage.cancel')}
      confirmLoading={busy}
      onOk={() => void deploy()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        name={`${scope}flow-model-deploy`}
        layout="vertical"
        initialValues={{ category: model.category ?? undefined }}
      >
        <Form.Item
          name="category"
          label={t('flowManage.category')}
          rules={[{ required: true, message: t('flowManage.categoryRequired') }]}
        >
          <CategorySelect />
        </Form.Item>
        {platform && (
          <Form.Item name="tenantIds" label={t('flowManage.tenants')} extra={t('flowManage.tenantsHelp')}>
            <TenantSelect />
          </Form.Item>
        )}
      </Form>
      {problem && <Alert type="error" showIcon title={<span style={{ whiteSpace: 'pre-line' }}>{problem}</span>} />}
    </Modal>
  );
}
