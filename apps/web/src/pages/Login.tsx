import { Suspense, lazy, useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Space } from 'antd';
// The plain input and the password input only: `Input` from 'antd' brings TextArea, Search and OTP along.
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { website, type Captcha, type Language } from '@atrium/contract';
import { fetchCaptcha, loginByUsername, tenantInfo } from '../api/auth';
import { useSession } from '../stores/session';
import { clearLock, useSettings } from '../stores/settings';
import { resetTags } from '../stores/tags';

// Loaded only when asked for: the login page itself stays small (no antd Form or Modal before login).
const RegisterDialog = lazy(() => import('./RegisterDialog'));

type Fields = { tenantId: string; username: string; password: string; code: string };
type Field = keyof Fields;
const REQUIRED: Record<Field, string> = {
  tenantId: 'login.tenantRequired',
  username: 'login.usernameRequired',
  password: 'login.passwordRequired',
  code: 'login.captchaRequired',
};

function Row({ error, children }: { error?: string; children: ReactNode }) {
  return (
    <div className="atrium-login-row">
      {children}
      <div className="atrium-login-error" role={error ? 'alert' : undefined}>
        {error ?? ''}
      </div>
    </div>
  );
}

export default function Login() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [v, setV] = useState<Fields>({ tenantId: website.defaultTenantId, username: '', password: '', code: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [tenantTouched, setTenantTouched] = useState(false);
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [captchaError, setCaptchaError] = useState(false);
  const [busy, setBusy] = useState(false);
  const [registering, setRegistering] = useState(false);
  const { language, setLanguage } = useSettings();
  // The form follows the server: its captcha call says whether logins require one (ATRIUM_CAPTCHA). Until it has
  // answered, or when it could not be asked, the field shows.
  const captchaOn = website.captchaMode && captcha?.required !== false;

  const set = (f: Field) => (e: { target: { value: string } }) => {
    if (f === 'tenantId') setTenantTouched(true);
    setV((old) => ({ ...old, [f]: e.target.value }));
    setErrors((old) => ({ ...old, [f]: undefined }));
  };

  const refreshCaptcha = useCallback(async () => {
    if (!website.captchaMode) return;
    try {
      setCaptcha(await fetchCaptcha());
      setCaptchaError(false);
      setV((old) => ({ ...old, code: '' }));
    } catch {
      setCaptchaError(true);
    }
  }, []);

  useEffect(() => {
    void refreshCaptcha();
    // Pre-fill the tenant served by this host name, when the server knows one.
    tenantInfo(window.location.hostname)
      .then((info) => {
        if (info?.tenantId) setV((old) => (tenantTouched ? old : { ...old, tenantId: info.tenantId }));
      })
      .catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refreshCaptcha]);
  useEffect(() => {
    document.title = `${t('login.title')} · Atrium`;
  }, [t]);

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const needed: Field[] = [
      ...(website.tenantMode ? ['tenantId' as const] : []),
      'username',
      'password',
      ...(captchaOn ? ['code' as const] : []),
    ];
    const missing = Object.fromEntries(needed.filter((f) => !v[f].trim()).map((f) => [f, t(REQUIRED[f])]));
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const res = await loginByUsername(
        {
          tenantId: v.tenantId.trim(),
          username: v.username.trim(),
          password: v.password,
          captchaKey: captcha?.key,
          captchaCode: v.code.trim(),
        },
        captchaOn,
      );
      const session = useSession.getState();
      clearLock();
      resetTags();
      session.login(res);
      const fromMap = sessionStorage.getItem('atrium-fromMapPending');
      if (fromMap !== null) {
        session.setFromMap(fromMap);
        sessionStorage.removeItem('atrium-fromMapPending');
      }
      // Navigate in the same tick as the session change, so the guard sees the new path at once.
      navigate(res.must_change_password ? '/info/index?tab=password' : params.get('redirect') || website.firstPage, {
        replace: true,
      });
      // The shell fetches the user info as it mounts (layout/Layout.tsx).
    } catch {
      // The http client has shown the server's error_description; a used captcha is gone, so draw a new one.
      if (captchaOn) void refreshCaptcha();
    } finally {
      setBusy(false);
    }
  };

  const languages: { key: Language; label: string }[] = [
    { key: 'zh', label: t('languages.zh') },
    { key: 'en', label: t('languages.en') },
  ];
  return (
    <div className="atrium-login">
      <form className="atrium-login-card" onSubmit={(e) => void submit(e)} autoComplete="off" noValidate>
        <div className="atrium-login-head">
          <h1>{t('login.welcome')}</h1>
          <Space size={0} data-testid="login-lang" aria-label={t('header.language')}>
            {languages.map((l) => (
              <Button
                key={l.key}
                size="small"
                type={l.key === language ? 'primary' : 'text'}
                disabled={l.key === language}
                onClick={() => setLanguage(l.key)}
              >
                {l.label}
              </Button>
            ))}
          </Space>
        </div>
        <p className="atrium-login-sub">{t('login.subtitle')}</p>
        {website.tenantMode && (
          <Row error={errors.tenantId}>
            <Input
              size="large"
              prefix={<TeamOutlined />}
              placeholder={t('login.tenant')}
              value={v.tenantId}
              onChange={set('tenantId')}
              status={errors.tenantId ? 'error' : undefined}
            />
          </Row>
        )}
        <Row error={errors.username}>
          <Input
            size="large"
            prefix={<UserOutlined />}
            placeholder={t('login.username')}
            autoComplete="username"
            value={v.username}
            onChange={set('username')}
            status={errors.username ? 'error' : undefined}
          />
        </Row>
        <Row error={errors.password}>
          <Password
            size="large"
            prefix={<LockOutlined />}
            placeholder={t('login.password')}
            autoComplete="current-password"
            value={v.password}
            onChange={set('password')}
            status={errors.password ? 'error' : undefined}
          />
        </Row>
        {captchaOn && (
          <Row error={errors.code}>
            <Space.Compact style={{ width: '100%' }}>
              <Input
                size="large"
                prefix={<SafetyOutlined />}
                placeholder={t('login.captcha')}
                maxLength={8}
                value={v.code}
                onChange={set('code')}
                status={errors.code ? 'error' : undefined}
              />
              {captcha && !captchaError ? (
                <img
                  className="atrium-captcha"
                  data-captcha-key={captcha.key}
                  src={captcha.image}
                  alt={t('login.refreshCaptcha')}
                  title={t('login.refreshCaptcha')}
                  onClick={() => void refreshCaptcha()}
                />
              ) : (
                <Button size="large" onClick={() => void refreshCaptcha()}>
                  {captchaError ? t('login.captchaFailed') : '…'}
                </Button>
              )}
            </Space.Compact>
          </Row>
        )}
        <Button type="primary" size="large" htmlType="submit" block loading={busy}>
          {t('login.submit')}
        </Button>
        <div className="atrium-login-links">
          <Button type="link" style={{ padding: 0 }} onClick={() => setRegistering(true)}>
            {t('login.register')}
          </Button>
          <Button type="link" style={{ padding: 0 }} onClick={() => navigate('/register')}>
            {t('login.clientRegister')}
          </Button>
          <Button type="link" style={{ padding: 0 }} onClick={() => navigate('/register/forgot')}>
            {t('login.forgotPassword')}
          </Button>
        </div>
      </form>
      {registering && (
        <Suspense fallback={null}>
          <RegisterDialog open onClose={() => setRegistering(false)} />
        </Suspense>
      )}
    </div>
  );
}
