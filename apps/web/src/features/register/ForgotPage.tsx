import '../customer/messages';
import { useState } from 'react';
import { Alert, Button, Form, Input, Result, Steps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { website } from '@atrium/contract';
import { PublicError, publicClient } from '../../api/customer';
import { PhoneCode } from './PhoneCode';
import { PasswordFields } from './PasswordFields';
import { PublicShell } from './PublicShell';
import { phoneRules, useTenantDefault } from './shared';

/**
 * 忘记密码 of a client account (docs/clients.md `resetPassword`): the phone, a type-2 code → a ticket, the new
 * password (POST JSON). Also how a staff-entered client sets its first password.
 */
export default function ForgotPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [tenantId, setTenantId] = useTenantDefault(params.get('tenant'));
  const [phone, setPhone] = useState(params.get('phone') ?? '');
  const [step, setStep] = useState(0);
  const [ticket, setTicket] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [form] = Form.useForm<{ password: string; confirm: string }>();

  const reset = async ({ password }: { password: string }) => {
    setSaving(true);
    setError(null);
    try {
      await publicClient.resetPassword(tenantId, { operatorTel: phone, ticket, password });
      setDone(t('clientReg.resetDone'));
    } catch (err) {
      const e = err as PublicError;
      const pw = e.fields.find((f) => f.field === 'password');
      if (pw) form.setFields([{ name: 'password', errors: [pw.message] }]);
      else setError(e.fields[0]?.message || e.message || t('clientReg.failed'));
      if (e.fields.some((f) => f.field === 'ticket')) setStep(1);
    } finally {
      setSaving(false);
    }
  };

  return (
    <PublicShell title={t('clientReg.forgotTitle')}>
      {done ? (
        <Result
          status="success"
          title={done}
          extra={
            <Link to="/login">
              <Button type="primary">{t('clientReg.goLogin')}</Button>
            </Link>
          }
        />
      ) : (
        <>
          <Steps
            size="small"
            current={step}
            style={{ marginBottom: 20 }}
            items={[
              { title: t('clientReg.stepPhone') },
              { title: t('clientReg.stepCode') },
              { title: t('clientReg.stepPassword') },
            ]}
          />
          {step === 0 && (
            <Form
              layout="vertical"
              requiredMark={false}
              initialValues={{ tenantId, phone }}
              onFinish={(v: { tenantId?: string; phone: string }) => {
                setTenantId((v.tenantId ?? tenantId).trim());
                setPhone(v.phone.trim());
                setStep(1);
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
              <Form.Item
                name="phone"
                label={t('clientReg.phone')}
                rules={phoneRules(t)}
                extra={t('clientReg.forgotHint')}
              >
                <Input inputMode="tel" maxLength={11} />
              </Form.Item>
              <Button type="primary" htmlType="submit" block>
                {t('clientReg.next')}
              </Button>
            </Form>
          )}
          {step === 1 && (
            <PhoneCode
              tenantId={tenantId}
              phone={phone}
              type={2}
              onBack={() => setStep(0)}
              onTicket={(tk) => {
                setTicket(tk);
                setStep(2);
              }}
            />
          )}
          {step === 2 && (
            <Form form={form} layout="vertical" onFinish={(v) => void reset(v)}>
              <PasswordFields label={t('clientReg.newPassword')} account={phone} />
              {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={error} />}
              <Button type="primary" htmlType="submit" block loading={saving}>
                {t('common.submit')}
              </Button>
            </Form>
          )}
        </>
      )}
    </PublicShell>
  );
}
