import { useCallback, useEffect, useState } from 'react';
import { App, Form, Input, Modal, Select } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { resourceApi } from '@atrium/contract';
import { sms } from '@atrium/contract/resources/resource/sms';
import { request } from '../../api/call';
import { get } from '../../api/http';
import ResourcePage, { type ResourceHooks } from '../../components/crud/ResourcePage';
import type { RecordOf } from '../../components/crud/fromDefinition';
import i18n from '../../i18n';
import { smsSendTexts } from './messages';
import { parseParams, parsePhones, type Checked } from './sms-send';

/**
 * 短信配置 (docs/outbox.md "SMS"): the definition's screen plus a "send" dialog — a toolbar button (the configuration
 * in use, or one picked) and a row button (that configuration) — posting `endpoint/send-message` with the phones and
 * the template parameters, checked here as the server checks them; the answer's message is shown.
 */

i18n.addResourceBundle('zh', 'translation', { smsSend: smsSendTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { smsSend: smsSendTexts.en }, true, false);

type Rec = RecordOf<typeof sms.fields>;
type Values = { code?: string; phones: string; params?: string };
type FieldErrors = { field?: string; message?: string }[];

export function SendDialog({ code, onClose }: { code: string | null | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [configs, setConfigs] = useState<{ value: string; label: string }[]>([]);
  const open = code !== undefined;

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({ code: code ?? undefined });
    let live = true;
    get<{ records?: Rec[] }>(`${sms.base}/list`, { current: 1, size: 100 })
      .then((page) => {
        if (!live) return;
        setConfigs(
          (page.records ?? []).map((r) => ({
            value: String(r.smsCode),
            label: r.templateId ? `${String(r.smsCode)} (${String(r.templateId)})` : String(r.smsCode),
          })),
        );
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open, code, form]);

  /** A form rule from a check: the check's message in the current language. */
  const rule =
    <T,>(check: (text: string) => Checked<T>) =>
    () => ({
      validator: (_: unknown, value: string | undefined) => {
        const r = check(value ?? '');
        return r.ok ? Promise.resolve() : Promise.reject(new Error(t(r.key, r.values)));
      },
    });

  const submit = async () => {
    // A refused field shows its reason under itself.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const phones = parsePhones(values.phones);
    const params = parseParams(values.params ?? '');
    if (!phones.ok || !params.ok) return;
    setSaving(true);
    try {
      const res = await request(resourceApi.sendMessage, {
        body: { code: values.code || undefined, phones: phones.value, params: params.value },
      });
      void message.success(t('smsSend.sent', { msg: res.data.msg, count: res.data.data?.length ?? 0 }));
      form.resetFields();
      onClose();
    } catch (err) {
      // The http client showed the message; the fields it names are marked too.
      const named = (err as { response?: { data?: { data?: FieldErrors } } }).response?.data?.data;
      if (Array.isArray(named))
        form.setFields(
          named
            .filter((e) => e.field === 'code' || e.field === 'phones' || e.field === 'params')
            .map((e) => ({ name: e.field as keyof Values, errors: [String(e.message ?? '')] })),
        );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('smsSend.title')}
      okText={t('smsSend.submit')}
      cancelText={t('smsSend.cancel')}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="code" label={t('smsSend.config')}>
          <Select allowClear showSearch options={configs} placeholder={t('smsSend.configPlaceholder')} />
        </Form.Item>
        <Form.Item name="phones" label={t('smsSend.phones')} required rules={[rule(parsePhones)]}>
          <Input.TextArea rows={3} placeholder={t('smsSend.phonesPlaceholder')} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="params"
          label={t('smsSend.params')}
          extra={t('smsSend.paramsHelp')}
          rules={[rule(parseParams)]}
        >
          <Input.TextArea rows={3} placeholder={t('smsSend.paramsPlaceholder')} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function SmsPage() {
  // undefined: closed; null: the configuration in use; a code: that configuration.
  const [sending, setSending] = useState<string | null | undefined>(undefined);
  const adjust = useCallback<NonNullable<ResourceHooks<Rec>['schema']>>(
    (derived) => ({
      ...derived,
      actions: [
        ...(derived.actions ?? []),
        { code: `${sms.code}_send`, label: 'smsSend.button', icon: <SendOutlined />, onClick: () => setSending(null) },
      ],
      rowActions: [
        ...(derived.rowActions ?? []),
        {
          code: `${sms.code}_send`,
          label: 'smsSend.rowButton',
          onClick: (rows) => setSending(String(rows[0].smsCode)),
        },
      ],
    }),
    [],
  );
  const [hooks] = useState<ResourceHooks<Rec>>(() => ({ schema: adjust }));
  return (
    <>
      <ResourcePage def={sms} hooks={hooks} />
      <SendDialog code={sending} onClose={() => setSending(undefined)} />
    </>
  );
}
