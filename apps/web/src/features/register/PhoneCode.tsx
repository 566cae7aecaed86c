import '../customer/messages';
import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PublicError, publicClient, type CodeType } from '../../api/customer';

/** Seconds between two codes to one phone (docs/clients.md "Send limits"). */
export const RESEND_SECONDS = 60;

/**
 * The SMS step of the public pages: 获取验证码 (`verification`, with a 60 s countdown and the server's refusal,
 * e.g. its 429 text, shown here), then the 6-digit code checked by `verificat` → a one-use ticket.
 */
export function PhoneCode({
  tenantId,
  phone,
  type,
  onTicket,
  onBack,
}: {
  tenantId: string;
  phone: string;
  type: CodeType;
  onTicket: (ticket: string) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ code: string }>();
  const [wait, setWait] = useState(0);
  const [sending, setSending] = useState(false);
  const [checking, setChecking] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const send = async () => {
    setSending(true);
    setError(null);
    try {
      await publicClient.sendCode(tenantId, phone, type);
      setSent(true);
      setWait(RESEND_SECONDS);
    } catch (err) {
      setError((err as PublicError).message || t('clientReg.failed'));
      // "Try again in N s": wait that long before offering the button again.
      const seconds = /\d+/.exec((err as Error).message);
      if ((err as PublicError).status === 429 && seconds) setWait(Number(seconds[0]));
    } finally {
      setSending(false);
    }
  };

  const check = async ({ code }: { code: string }) => {
    setChecking(true);
    setError(null);
    try {
      const { ticket } = await publicClient.checkCode(tenantId, phone, type, code.trim());
      onTicket(ticket);
    } catch (err) {
      const e = err as PublicError;
      if (e.fields.length) form.setFields(e.fields.map((f) => ({ name: 'code', errors: [f.message] })));
      else form.setFields([{ name: 'code', errors: [e.message || t('clientReg.failed')] }]);
    } finally {
      setChecking(false);
    }
  };

  return (
    <Form form={form} layout="vertical" onFinish={(v) => void check(v)} requiredMark={false}>
      <Typography.Paragraph>
        {t('clientReg.codeTo', { phone })}{' '}
        <Button type="link" size="small" style={{ padding: 0 }} onClick={onBack}>
          {t('clientReg.changePhone')}
        </Button>
      </Typography.Paragraph>
      <Form.Item label={t('clientReg.code')} required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item
            name="code"
            noStyle
            rules={[
              { required: true, message: t('clientReg.codeRequired') },
              { pattern: /^\d{6}$/, message: t('clientReg.codeBad') },
            ]}
          >
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder={t('clientReg.codePlaceholder')}
              aria-label={t('clientReg.code')}
            />
          </Form.Item>
          <Button onClick={() => void send()} loading={sending} disabled={wait > 0} data-testid="send-code">
            {wait > 0 ? t('clientReg.resendIn', { n: wait }) : sent ? t('clientReg.resend') : t('clientReg.getCode')}
          </Button>
        </Space.Compact>
      </Form.Item>
      {sent && !error && (
        <Alert type="success" showIcon message={t('clientReg.codeSent')} style={{ marginBottom: 16 }} />
      )}
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Button type="primary" htmlType="submit" block loading={checking}>
        {t('clientReg.next')}
      </Button>
    </Form>
  );
}
