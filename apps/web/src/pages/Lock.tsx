import { useState } from 'react';
import { Avatar, Button, Card, Input, Space, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { logout } from '../api/auth';
import { useSession } from '../stores/session';
import { hashLockPassword, useSettings } from '../stores/settings';
import { seededName } from '../i18n/seeded';

/** Reached without a session (the path needs no login): nothing to unlock, only the way to log in. */
function NoSession() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="atrium-login">
      <Card style={{ width: 360, maxWidth: '92vw', textAlign: 'center' }} data-testid="lock-no-session">
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Avatar size={72} src="/avatar.svg" />
          <Typography.Text type="secondary">
            <LockOutlined /> {t('lock.noSession')}
          </Typography.Text>
          <Button type="primary" block onClick={() => navigate('/login', { replace: true })}>
            {t('lock.toLogin')}
          </Button>
        </Space>
      </Card>
    </div>
  );
}

/** The lock screen: unlocks with the lock password (only its hash is kept). */
export default function Lock() {
  const token = useSession((s) => s.token);
  return token ? <Locked /> : <NoSession />;
}

function Locked() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const userInfo = useSession((s) => s.userInfo);
  const { lockPasswordHash, unlock } = useSettings();
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const tryUnlock = async () => {
    if (!value) return setError(t('lock.required'));
    if ((await hashLockPassword(value)) !== lockPasswordHash) {
      setValue('');
      return setError(t('lock.wrong'));
    }
    // The guard then sends /lock back to the screen that was locked (app/guard.ts).
    unlock();
  };
  const leave = async () => {
    await logout().catch(() => undefined);
    useSession.getState().logoutLocal();
    navigate('/login', { replace: true });
  };
  return (
    <div className="atrium-login">
      <Card style={{ width: 360, maxWidth: '92vw', textAlign: 'center' }}>
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Avatar size={72} src={userInfo?.avatar || '/avatar.svg'} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {seededName(userInfo?.realName || userInfo?.account || '', i18n.language)}
          </Typography.Title>
          <Typography.Text type="secondary">
            <LockOutlined /> {t('lock.locked')}
          </Typography.Text>
          <Input.Password
            autoFocus
            value={value}
            status={error ? 'error' : undefined}
            placeholder={t('lock.unlockPlaceholder')}
            onChange={(e) => {
              setValue(e.target.value);
              setError('');
            }}
            onPressEnter={() => void tryUnlock()}
          />
          {error && (
            <Typography.Text type="danger" data-testid="lock-error">
              {error}
            </Typography.Text>
          )}
          <Button type="primary" block onClick={() => void tryUnlock()}>
            {t('lock.unlock')}
          </Button>
          <Button type="link" onClick={() => void leave()}>
            {t('lock.logout')}
          </Button>
        </Space>
      </Card>
    </div>
  );
}
