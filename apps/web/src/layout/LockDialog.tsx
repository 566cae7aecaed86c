import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { hashLockPassword, useSettings } from '../stores/settings';

/**
 * The dialog that sets the lock password, then locks (docs/product.md "States"). A lazy chunk of `LockButton`: Form,
 * Modal and Input load at its first open, not with the shell (docs/web.md "Bundle budget").
 */
export default function LockDialog({ onClose, onLock }: { onClose: () => void; onLock: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const setLockPassword = useSettings((s) => s.setLockPassword);
  const onSet = async () => {
    const password = (await form.validateFields().catch(() => null))?.password;
    if (!password) {
      // Also when the field had not registered yet (a click during the opening animation): never lock without a password.
      form.setFields([{ name: 'password', errors: [t('lock.required')] }]);
      return;
    }
    setLockPassword(await hashLockPassword(password));
    onClose();
    onLock();
  };
  return (
    <Modal
      open
      title={t('lock.setTitle')}
      onOk={() => void onSet()}
      onCancel={onClose}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={() => void onSet()}>
        <Form.Item name="password" label={t('lock.password')} rules={[{ required: true, message: t('lock.required') }]}>
          <Input.Password autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
