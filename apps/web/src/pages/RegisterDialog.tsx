import { useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { website } from '@atrium/contract';
import { registerGuest } from '../api/user';
import { useSession } from '../stores/session';
import { navigate } from '../app/notify';
import { registerProblem, type RegisterForm } from './registerChecks';

/** Third-party account registration (docs/product.md "Screens and routes", "States", "Validation", "Messages and errors"): an application an administrator approves. */
export default function RegisterDialogWithApp(props: { open: boolean; onClose: () => void; oauthId?: string }) {
  // Its own antd App context: the login page around it has none (kept small on purpose).
  return (
    <App component={false}>
      <RegisterDialog {...props} />
    </App>
  );
}

function RegisterDialog({ open, onClose, oauthId = '' }: { open: boolean; onClose: () => void; oauthId?: string }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<RegisterForm>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const v = form.getFieldsValue();
    const problem = registerProblem(v);
    if (problem) {
      message.warning(t(problem));
      return;
    }
    setBusy(true);
    try {
      await registerGuest({
        tenantId: v.tenantId!.trim(),
        name: v.name?.trim() ?? '',
        account: v.account!.trim(),
        password: v.password!,
        oauthId,
      });
      onClose();
      form.resetFields();
      modal.success({
        title: t('register.doneTitle'),
        content: t('register.done'),
        onOk: () => {
          useSession.getState().logoutLocal();
          navigate('/login');
        },
      });
    } catch (err) {
      // success:false — the http client showed the server's msg; without one, say '提交失败'.
      if (!(err instanceof Error) || !err.message) message.error(t('register.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('register.title')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ tenantId: website.defaultTenantId }}>
        <Form.Item name="tenantId" label={t('register.tenantId')}>
          <Input />
        </Form.Item>
        <Form.Item name="name" label={t('register.name')}>
          <Input />
        </Form.Item>
        <Form.Item name="account" label={t('register.account')}>
          <Input />
        </Form.Item>
        <Form.Item name="password" label={t('register.password')}>
          <Input.Password />
        </Form.Item>
        <Form.Item name="password2" label={t('register.password2')}>
          <Input.Password />
        </Form.Item>
      </Form>
    </Modal>
  );
}
