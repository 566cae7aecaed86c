import '../customer/messages';
import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { website } from '@atrium/contract';
import { PublicError, publicClient, type ReviewState } from '../../api/customer';
import { PublicShell } from './PublicShell';
import { PHONE, phoneRules, useTenantDefault } from './shared';

const RESULT: Record<ReviewState, 'info' | 'success' | 'warning'> = {
  none: 'info',
  pending: 'info',
  approved: 'success',
  rejected: 'warning',
};

/** 注册进度 (docs/clients.md "Registration" `reviewed`): a phone's latest application and what to do next. */
export default function StatusPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [tenantId, setTenantId] = useTenantDefault(params.get('tenant'));
  const [phone, setPhone] = useState(params.get('phone') ?? '');
  const [status, setStatus] = useState<ReviewState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const ask = async (tenant: string, tel: string) => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      setStatus((await publicClient.reviewed(tenant, tel)).status);
    } catch (err) {
      setError((err as PublicError).message || t('clientReg.failed'));
    } finally {
      setBusy(false);
    }
  };

  // Arriving from the registration with a phone: ask at once.
  const initialPhone = params.get('phone');
  const initialTenant = params.get('tenant');
  useEffect(() => {
    if (initialPhone && PHONE.test(initialPhone)) void ask(initialTenant || website.defaultTenantId, initialPhone);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [initialPhone, initialTenant]);

  const query = `?phone=${encodeURIComponent(phone)}&tenant=${encodeURIComponent(tenantId)}`;
  const next: Record<ReviewState, ReactNode> = {
    none: (
      <Link to={`/register${query}`}>
        <Button type="primary">{t('clientReg.goRegister')}</Button>
      </Link>
    ),
    pending: null,
    approved: (
      <>
        <Link to="/login">
          <Button type="primary">{t('clientReg.goLogin')}</Button>
        </Link>{' '}
        <Link to={`/register/forgot${query}`}>
          <Button>{t('clientReg.forgot')}</Button>
        </Link>
      </>
    ),
    rejected: (
      <Link to={`/register${query}`}>
        <Button type="primary">{t('clientReg.registerAgain')}</Button>
      </Link>
    ),
  };

  return (
    <PublicShell title={t('clientReg.statusTitle')}>
      <Form
        layout="vertical"
        initialValues={{ tenantId, phone }}
        requiredMark={false}
        onFinish={(v: { tenantId?: string; phone: string }) => {
          const tenant = (v.tenantId ?? tenantId).trim();
          setTenantId(tenant);
          setPhone(v.phone.trim());
          void ask(tenant, v.phone.trim());
        }}
      >
        {website.tenantMode && (
          <Form.Item
            name="tenantId"
            label={t('clientReg.tenant')}
            rules={[{ required: true, whitespace: true, message: t('login.tenantRequired') }]}
          >
            <Input />
          </Form.Item>
        )}
        <Form.Item name="phone" label={t('clientReg.phone')} rules={phoneRules(t)}>
          <Input inputMode="tel" maxLength={11} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('clientReg.query')}
        </Button>
      </Form>
      {error && <Alert type="error" showIcon style={{ marginTop: 16 }} message={error} />}
      {status && (
        <Result
          status={RESULT[status]}
          title={t(`clientReg.status.${status}`)}
          subTitle={t(`clientReg.after.${status}`)}
          extra={next[status]}
          data-testid="review-status"
        />
      )}
    </PublicShell>
  );
}
