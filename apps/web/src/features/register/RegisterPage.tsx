import '../customer/messages';
import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Form, Input, Select, Space, Steps, Typography, Upload } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { validateCreditCode, validateIdCard, website, type TextField } from '@atrium/contract';
import { clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { PublicError, publicClient, type PhoneState } from '../../api/customer';
import { RegionCascader } from '../../components/crud/RegionCascader';
import { registerResourceTexts } from '../../components/crud/fromDefinition';
import { PhoneCode } from './PhoneCode';
import { PasswordFields } from './PasswordFields';
import { PublicShell } from './PublicShell';
import { checkRule, phoneRules, useTenantDefault } from './shared';

/**
 * 客户注册 (docs/clients.md "Registration"), public: 1 the phone (`verify`: free / registered / blocked), 2 the SMS
 * code (`verification` type 1 → `verificat` → a ticket), 3 the client's form (`register`). Then the spec's
 * '注册提示' alert and the status page.
 */

const F = clientinfo.fields;
registerResourceTexts(clientinfo);
const label = (name: keyof typeof F) => `clientinfo:fields.${name}.label`;

type Values = Record<string, string | number | undefined> & { password?: string; confirm?: string };

/** Required, longest length and pattern of a text field of the definition, as antd rules. */
function textRules(name: keyof typeof F, t: TFunction): Rule[] {
  const f = F[name] as TextField;
  const rules: Rule[] = [];
  if (f.required) rules.push({ required: true, whitespace: true, message: t(`clientinfo:fields.${name}.required`) });
  if (f.max) rules.push({ max: f.max, message: t('clientReg.tooLong', { n: f.max }) });
  if (f.pattern) rules.push({ pattern: new RegExp(f.pattern.regex), message: t(`clientinfo:fields.${name}.pattern`) });
  return rules;
}

export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [tenantId, setTenantId] = useTenantDefault(params.get('tenant'));
  const [step, setStep] = useState(0);
  const [phone, setPhone] = useState(params.get('phone') ?? '');
  const [state, setState] = useState<PhoneState | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [ticket, setTicket] = useState('');
  const [phoneForm] = Form.useForm<{ tenantId: string; phone: string }>();

  const statusLink = `/register/status?phone=${encodeURIComponent(phone)}&tenant=${encodeURIComponent(tenantId)}`;

  const checkPhone = async (v: { tenantId?: string; phone: string }) => {
    const tenant = (v.tenantId ?? tenantId).trim();
    setTenantId(tenant);
    setPhone(v.phone.trim());
    setChecking(true);
    setError(null);
    setState(null);
    try {
      const { state: s } = await publicClient.verify(tenant, v.phone.trim());
      setState(s);
      if (s === 'free') setStep(1);
    } catch (err) {
      setError((err as PublicError).message || t('clientReg.failed'));
    } finally {
      setChecking(false);
    }
  };

  return (
    <PublicShell title={t('clientReg.title')}>
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 20 }}
        items={[
          { title: t('clientReg.stepPhone') },
          { title: t('clientReg.stepCode') },
          { title: t('clientReg.stepForm') },
        ]}
      />
      {step === 0 && (
        <Form
          form={phoneForm}
          layout="vertical"
          initialValues={{ tenantId, phone }}
          onFinish={(v) => void checkPhone(v)}
          requiredMark={false}
        >
          {website.tenantMode && (
            <Form.Item
              name="tenantId"
              label={t('clientReg.tenant')}
              rules={[{ required: true, whitespace: true, message: t('login.tenantRequired') }]}
            >
              <Input onChange={(e) => setTenantId(e.target.value)} />
            </Form.Item>
          )}
          <Form.Item name="phone" label={t('clientReg.phone')} rules={phoneRules(t)}>
            <Input inputMode="tel" maxLength={11} autoComplete="tel" />
          </Form.Item>
          {state === 'registered' && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              message={t('clientReg.registered')}
              action={
                <Link to={statusLink}>
                  <Button size="small">{t('clientReg.checkStatus')}</Button>
                </Link>
              }
            />
          )}
          {state === 'blocked' && (
            <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('clientReg.blocked')} />
          )}
          {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={error} />}
          <Button type="primary" htmlType="submit" block loading={checking}>
            {t('clientReg.next')}
          </Button>
          <div style={{ marginTop: 12, textAlign: 'center' }}>
            <Link to="/register/status">{t('clientReg.checkStatus')}</Link>
          </div>
        </Form>
      )}
      {step === 1 && (
        <PhoneCode
          tenantId={tenantId}
          phone={phone}
          type={1}
          onBack={() => setStep(0)}
          onTicket={(tk) => {
            setTicket(tk);
            setStep(2);
          }}
        />
      )}
      {step === 2 && (
        <ClientForm
          tenantId={tenantId}
          phone={phone}
          ticket={ticket}
          language={i18n.language}
          onTicketGone={() => setStep(1)}
          onDone={() => navigate(statusLink)}
        />
      )}
    </PublicShell>
  );
}

/** Step 3: the client's record, the licence, the account and its password. */
function ClientForm({
  tenantId,
  phone,
  ticket,
  language,
  onDone,
  onTicketGone,
}: {
  tenantId: string;
  phone: string;
  ticket: string;
  language: string;
  /** After the spec's alert: the status page. */
  onDone: () => void;
  onTicketGone: () => void;
}) {
  const { t } = useTranslation();
  // Inside the shell's antd App (PublicShell), so the alert follows the theme and the language.
  const { modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [regionFallback, setRegionFallback] = useState(false);
  const [uploadNote, setUploadNote] = useState<string | null>(null);
  const licence = Form.useWatch('licenceAttachId', form);
  // The uploaded licence is shown from the chosen file itself: the stored file is served only to the tenant's signed-in
  // staff (docs/system-api.md "Files"), which the registrant is not.
  const [licencePreview, setLicencePreview] = useState<string | null>(null);
  useEffect(() => () => void (licencePreview && URL.revokeObjectURL(licencePreview)), [licencePreview]);
  const account = Form.useWatch('appClientAccount', form);

  // The levels of this tenant's region tree; a server that wants a login for them leaves a plain code input.
  const loader = useMemo(
    () => async (parentCode: string) => {
      try {
        return await publicClient.regionLevel(tenantId, parentCode);
      } catch (err) {
        setRegionFallback(true);
        throw err;
      }
    },
    [tenantId],
  );

  const typeOptions = (F.clientType.options ?? []).map((o, i) => ({
    value: o.value,
    label: t(`clientinfo:fields.clientType.options.${i}`),
  }));

  const submit = async (v: Values) => {
    setSaving(true);
    setError(null);
    const { confirm: _c, ...rest } = v;
    const body: Record<string, unknown> = { ...rest, operatorTel: phone, ticket };
    for (const k of Object.keys(body)) if (body[k] === '' || body[k] === undefined) delete body[k];
    if (typeof body.creditCode === 'string') body.creditCode = body.creditCode.trim().toUpperCase();
    try {
      await publicClient.register(tenantId, body);
    } catch (err) {
      const e = err instanceof PublicError ? err : new PublicError('', undefined, []);
      const known = e.fields.filter((f) => f.field in F || f.field === 'password');
      if (known.length) form.setFields(known.map((f) => ({ name: f.field, errors: [f.message] })));
      const ticketField = e.fields.find((f) => f.field === 'ticket');
      if (!known.length) setError(ticketField?.message || e.message || t('clientReg.failed'));
      // A spent or expired ticket: a new code is needed.
      if (ticketField) onTicketGone();
      return;
    } finally {
      setSaving(false);
    }
    // The spec's alert (§8), then the status page.
    modal.success({
      title: t('clientReg.doneTitle'),
      content: t('clientReg.done'),
      okText: t('common.ok'),
      onOk: onDone,
    });
  };

  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(v) => void submit(v)}
      scrollToFirstError
      initialValues={{ operatorTel: phone }}
    >
      <Form.Item name="clientName" label={t(label('clientName'))} rules={textRules('clientName', t)}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item
        name="clientType"
        label={t(label('clientType'))}
        rules={[{ required: true, message: t('clientinfo:fields.clientType.required') }]}
      >
        <Select options={typeOptions} />
      </Form.Item>
      <Form.Item
        name="creditCode"
        label={t(label('creditCode'))}
        required
        validateTrigger={['onChange', 'onBlur']}
        rules={[checkRule(validateCreditCode, language)]}
        extra={t('clientReg.creditCodeHint')}
      >
        <Input maxLength={18} style={{ textTransform: 'uppercase' }} />
      </Form.Item>
      <Form.Item name="contactName" label={t(label('contactName'))} rules={textRules('contactName', t)}>
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item
        name="contactIdCard"
        label={t(label('contactIdCard'))}
        validateTrigger={['onChange', 'onBlur']}
        rules={[checkRule(validateIdCard, language, true)]}
      >
        <Input maxLength={18} />
      </Form.Item>
      <Form.Item name="operatorTel" label={t(label('operatorTel'))}>
        <Input disabled />
      </Form.Item>
      <Form.Item name="email" label={t(label('email'))} rules={textRules('email', t)}>
        <Input inputMode="email" maxLength={100} />
      </Form.Item>
      <Form.Item
        name="regionCode"
        label={t(label('regionCode'))}
        rules={[{ required: true, message: t('clientinfo:fields.regionCode.required') }]}
        extra={regionFallback ? t('clientReg.regionFallback') : undefined}
      >
        {regionFallback ? (
          <Input maxLength={12} inputMode="numeric" placeholder="110101" />
        ) : (
          <RegionCascader f={{ name: 'regionCode', label: label('regionCode') }} loader={loader} />
        )}
      </Form.Item>
      <Form.Item name="address" label={t(label('address'))} rules={textRules('address', t)}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item
        name="licenceAttachId"
        label={t(label('licenceAttachId'))}
        extra={uploadNote ?? t('clientReg.licenceHint')}
        validateStatus={uploadNote ? 'warning' : undefined}
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Upload
            accept="image/*"
            showUploadList={false}
            customRequest={async ({ file, onSuccess, onError }) => {
              setUploadNote(null);
              try {
                const res = await publicClient.upload(tenantId, file as File);
                form.setFieldValue('licenceAttachId', res.link);
                setLicencePreview(URL.createObjectURL(file as File));
                onSuccess?.(res);
              } catch (err) {
                const e = err as PublicError;
                setUploadNote(
                  e.status === 401 || e.status === 403
                    ? t('clientReg.uploadNeedsLogin')
                    : e.message || t('clientReg.failed'),
                );
                onError?.(e);
              }
            }}
          >
            <Button icon={<UploadOutlined />}>{t('clientReg.uploadLicence')}</Button>
          </Upload>
          {typeof licence === 'string' && licence && licencePreview && (
            <img src={licencePreview} alt={t(label('licenceAttachId'))} style={{ maxWidth: '100%', maxHeight: 160 }} />
          )}
        </Space>
      </Form.Item>
      <Form.Item
        name="appClientAccount"
        label={t(label('appClientAccount'))}
        rules={textRules('appClientAccount', t)}
        extra={t('clientReg.accountHint')}
      >
        <Input maxLength={45} placeholder={phone} autoComplete="username" />
      </Form.Item>
      <PasswordFields
        label={t('clientReg.password')}
        account={String(account || phone)}
        dependsOn={['appClientAccount']}
      />
      {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={error} />}
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('clientReg.reviewNote')}
      </Typography.Paragraph>
      <Button type="primary" htmlType="submit" block loading={saving}>
        {t('clientReg.submit')}
      </Button>
    </Form>
  );
}
