import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Card, Dropdown, Form, Input, Space, Typography } from 'antd';
import { GlobalOutlined, LockOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { website, type Language } from '@atrium/contract';
import { fetchCaptcha, getUserInfo, loginByUsername, tenantInfo } from '../api/auth';
import { useSession } from '../stores/session';
import { clearLock, useSettings } from '../stores/settings';
import { resetTags } from '../stores/tags';
import RegisterDialog from './RegisterDialog';

type Fields = { tenantId: string; username: string; password: string; code: string };

export default function Login() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [captcha, setCaptcha] = useState<{ key: string; image: string } | null>(null);
  const [captchaError, setCaptchaError] = useState(false);
  const [busy, setBusy] = useState(false);
  const [registering, setRegistering] = useState(false);
  const { language, setLanguage } = useSettings();

  const refreshCaptcha = useCallback(async () => {
    if (!website.captchaMode) return;
    try {
      setCaptcha(await fetchCaptcha());
      setCaptchaError(false);
      form.setFieldValue('code', '');
    } catch {
      setCaptchaError(true);
    }
  }, [form]);

  useEffect(() => {
    void refreshCaptcha();
    document.title = `${t('login.title')} · Atrium`;
    // Pre-fill the tenant served by this host name, when the server knows one.
    tenantInfo(window.location.hostname)
      .then((info) => { if (info?.tenantId && !form.isFieldTouched('tenantId')) form.setFieldValue('tenantId', info.tenantId); })
      .catch(() => undefined);
  }, [refreshCaptcha, form, t]);

  const submit = async (v: Fields) => {
    setBusy(true);
    try {
      const res = await loginByUsername({ tenantId: v.tenantId, username: v.username, password: v.password, captchaKey: captcha?.key, captchaCode: v.code }, website.captchaMode);
      const session = useSession.getState();
      clearLock();
      resetTags();
      session.login(res);
      const fromMap = sessionStorage.getItem('atrium-fromMapPending');
      if (fromMap !== null) {
        session.setFromMap(fromMap);
        sessionStorage.removeItem('atrium-fromMapPending');
      }
      session.setUserInfo(await getUserInfo());
      navigate(res.must_change_password ? '/info/index?tab=password' : params.get('redirect') || '/', { replace: true });
    } catch {
      // The http client has shown the server's error_description; a used captcha is gone, so draw a new one.
      void refreshCaptcha();
    } finally {
      setBusy(false);
    }
  };

  const languages: { key: Language; label: string }[] = [{ key: 'zh', label: '中文' }, { key: 'en', label: 'English' }];
  return (
    <div className="atrium-login">
      <Card className="atrium-login-card" variant="borderless">
        <Space direction="vertical" size={4} style={{ width: '100%', marginBottom: 16 }}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Title level={3} style={{ margin: 0 }}>{t('login.welcome')}</Typography.Title>
            <Dropdown menu={{ items: languages.map((l) => ({ key: l.key, label: l.label, disabled: l.key === language })), onClick: ({ key }) => setLanguage(key as Language) }}>
              <Button type="text" icon={<GlobalOutlined />} aria-label={t('header.language')} data-testid="login-lang" />
            </Dropdown>
          </Space>
          <Typography.Text type="secondary">{t('login.subtitle')}</Typography.Text>
        </Space>
        <Form form={form} size="large" onFinish={submit} initialValues={{ tenantId: website.defaultTenantId }} autoComplete="off">
          {website.tenantMode && (
            <Form.Item name="tenantId" rules={[{ required: true, message: t('login.tenantRequired') }]}>
              <Input prefix={<TeamOutlined />} placeholder={t('login.tenant')} />
            </Form.Item>
          )}
          <Form.Item name="username" rules={[{ required: true, message: t('login.usernameRequired') }]}>
            <Input prefix={<UserOutlined />} placeholder={t('login.username')} autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} placeholder={t('login.password')} autoComplete="current-password" />
          </Form.Item>
          {website.captchaMode && (
            <Form.Item required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="code" noStyle rules={[{ required: true, message: t('login.captchaRequired') }]}>
                  <Input prefix={<SafetyOutlined />} placeholder={t('login.captcha')} maxLength={8} />
                </Form.Item>
                {captcha && !captchaError
                  ? <img className="atrium-captcha" src={captcha.image} alt={t('login.refreshCaptcha')} title={t('login.refreshCaptcha')} onClick={() => void refreshCaptcha()} />
                  : <Button style={{ height: 40 }} onClick={() => void refreshCaptcha()}>{captchaError ? t('login.captchaFailed') : '…'}</Button>}
              </Space.Compact>
            </Form.Item>
          )}
          <Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy}>{t('login.submit')}</Button>
          </Form.Item>
          <Button type="link" style={{ padding: 0 }} onClick={() => setRegistering(true)}>{t('login.register')}</Button>
        </Form>
      </Card>
      <RegisterDialog open={registering} onClose={() => setRegistering(false)} />
    </div>
  );
}
