import { useState, type ReactNode } from 'react';
import { Alert, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTabScope } from '../../../layout/tabScope';
import { CategorySelect, refusal, TenantSelect, usePlatform } from './common';

/** What a deployment is sent with: its category, and the tenants named by the platform administrator (else none). */
export type DeployValues = { category?: string; tenantIds?: string[] };

/**
 * The dialog of a deployment (部署 of a model, 上传部署; docs/workflow.md "Screens"): its category and, for the
 * platform administrator, the tenants to deploy into (none: the platform's own), plus what the caller adds
 * (`children`). Once the form is valid and `ready()` holds, `send` gets the values; a model the deploy check refuses
 * (the server's 400 naming the element) stays shown in the dialog.
 */
export function DeployDialog({
  title,
  okText,
  formName,
  category,
  ready = () => true,
  send,
  onClose,
  children,
}: {
  title: string;
  okText: string;
  formName: string;
  /** The category the form starts with. */
  category?: string;
  ready?: () => boolean;
  send: (values: DeployValues) => Promise<void>;
  onClose: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const scope = useTabScope();
  const platform = usePlatform();
  const [form] = Form.useForm<DeployValues>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');

  const submit = async () => {
    let values: DeployValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is missing
    }
    if (!ready()) return;
    setBusy(true);
    setProblem('');
    try {
      await send({
        category: values.category,
        tenantIds: platform && values.tenantIds?.length ? values.tenantIds : undefined,
      });
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
      title={title}
      okText={okText}
      cancelText={t('flowManage.cancel')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} name={`${scope}${formName}`} layout="vertical" initialValues={{ category }}>
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
        {children}
      </Form>
      {problem && <Alert type="error" showIcon title={<span style={{ whiteSpace: 'pre-line' }}>{problem}</span>} />}
    </Modal>
  );
}
