import '../customer/messages';
import { useEffect, type ReactNode } from 'react';
import { App, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Language } from '@atrium/contract';
import { useSettings } from '../../stores/settings';

/**
 * The frame of the public client pages (registration, status, forgotten password): no login, no shell. antd's `App`
 * gives them message and modal (the signed-in shell's lives in the lazy Layout). Narrow screens (390 px) get the
 * whole width.
 */
export function PublicShell({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { language, setLanguage } = useSettings();
  useEffect(() => {
    document.title = `${title} · Atrium`;
  }, [title]);
  const languages: { key: Language; label: string }[] = [
    { key: 'zh', label: t('languages.zh') },
    { key: 'en', label: t('languages.en') },
  ];
  return (
    <App>
      <div className="atrium-login atrium-public">
        <div className="atrium-login-card atrium-public-card">
          <div className="atrium-login-head">
            <h1>{title}</h1>
            <Space size={0} aria-label={t('header.language')}>
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
          <div style={{ marginTop: 16 }}>{children}</div>
          <div style={{ marginTop: 16, textAlign: 'center' }}>
            <Link to="/login">{t('clientReg.backToLogin')}</Link>
          </div>
        </div>
      </div>
    </App>
  );
}
