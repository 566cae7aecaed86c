import { useState } from 'react';
import { LockOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOCK_DELAY_MS } from '@atrium/contract';
import { hashLockPassword, useSettings } from '../stores/settings';

/**
 * docs/product.md "States": lock asks for a lock password first when none is set; then locks and goes to /lock after
 * 100 ms.
 */
export default function LockButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ password: string }>();
  const { lockPasswordHash, setLockPassword, lock } = useSettings();

  // The screen locked is where unlocking returns. The lock screen takes the locked screen's place in the history (the
  // guard already replaced it): Back never reaches /lock, neither after unlocking nor after logging out.
  const doLock = () => {
    lock(location.pathname + location.search);
    setTimeout(() => navigate('/lock', { replace: true }), LOCK_DELAY_MS);
  };
  const onSet = async () => {
    const password = (await form.validateFields().catch(() => null))?.password;
    if (!password) {
      // Also when the field had not registered yet (a click during the opening animation): never lock without a password.
      form.setFields([{ name: 'password', errors: [t('lock.required')] }]);
      return;
    }
    setLockPassword(await hashLockPassword(password));
    setOpen(false);
    doLock();
  };
  return (
    <>
      <Button
        type="text"
        icon={<LockOutlined />}
        aria-label={t('header.lock')}
        data-testid="lock"
        onClick={() => (lockPasswordHash ? doLock() : setOpen(true))}
      />
      <Modal
        open={open}
        title={t('lock.setTitle')}
        onOk={() => void onSet()}
        onCancel={() => setOpen(false)}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={() => void onSet()}>
          <Form.Item
            name="password"
            label={t('lock.password')}
            rules={[{ required: true, message: t('lock.required') }]}
          >
            <Input.Password autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
