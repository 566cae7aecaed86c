import { useCallback, useEffect, useRef, useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { business, type AnswerOf } from '@atrium/contract';
import { subdomain_list } from '@atrium/contract/resources/subdomain/subdomain_list';
import { call } from '../../api/call';
import ResourcePage, { type ResourceHooks } from '../../components/crud/ResourcePage';
import type { RecordOf } from '../../components/crud/fromDefinition';
import type { CrudContext } from '../../components/crud/types';
import i18n from '../../i18n';
import { subdomainPageTexts } from './messages';

/**
 * 子域名 (docs/subdomains.md): the list, start/stop and the other actions from the definition, plus the application
 * dialog — the name is checked live (`checkSubDomainLegal`, debounced) and the reason shown under it.
 */

i18n.addResourceBundle('zh', 'translation', { subdomainPage: subdomainPageTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { subdomainPage: subdomainPageTexts.en }, true, false);

type Legality = AnswerOf<typeof business.checkSubDomainLegal>;
type Rec = RecordOf<typeof subdomain_list.fields>;

/** The live answer for a name: checked 300 ms after the last keystroke; stale answers are dropped. */
function useLegality(name: string) {
  const [state, setState] = useState<{ name: string; result?: Legality; checking: boolean }>({
    name: '',
    checking: false,
  });
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    if (!name) {
      setState({ name, checking: false });
      return;
    }
    setState((s) => ({ ...s, name, checking: true }));
    const timer = setTimeout(() => {
      call(business.checkSubDomainLegal, { query: { subDomain: name } })
        .then((result) => mine === seq.current && setState({ name, result, checking: false }))
        .catch(() => mine === seq.current && setState({ name, checking: false }));
    }, 300);
    return () => clearTimeout(timer);
  }, [name]);
  return state;
}

function ApplyDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ subDomain: string; appClientAccount?: string }>();
  const name = (Form.useWatch('subDomain', form) ?? '').trim();
  const live = useLegality(name);
  const [saving, setSaving] = useState(false);
  const result = live.name === name ? live.result : undefined;

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const res = await call(business.submitSubDomainApply, {
        query: {
          subDomain: values.subDomain.trim(),
          appClientAccount: values.appClientAccount?.trim() || undefined,
        },
      });
      void message.success(String(res.fullDomain ?? values.subDomain));
      form.resetFields();
      onDone();
    } catch {
      // The http client showed why.
    } finally {
      setSaving(false);
    }
  };

  const help = !name
    ? undefined
    : live.checking || !result
      ? t('subdomainPage.checking')
      : result.legal
        ? t('subdomainPage.fullDomain', { domain: result.fullDomain })
        : result.reason;
  return (
    <Modal
      open={open}
      title={t('subdomainPage.apply')}
      okText={t('subdomainPage.submit')}
      cancelText={t('subdomainPage.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: !result?.legal || live.checking }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="subDomain"
          label={t('subdomainPage.name')}
          required
          validateStatus={!name || live.checking || !result ? undefined : result.legal ? 'success' : 'error'}
          help={help}
        >
          <Input placeholder={t('subdomainPage.namePlaceholder')} maxLength={32} autoComplete="off" />
        </Form.Item>
        <Form.Item name="appClientAccount" label={t('subdomainPage.account')}>
          <Input placeholder={t('subdomainPage.accountPlaceholder')} maxLength={45} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function SubdomainListPage() {
  const [ctx, setCtx] = useState<CrudContext | null>(null);
  const adjust = useCallback<NonNullable<ResourceHooks<Rec>['schema']>>(
    (derived) => ({
      ...derived,
      actions: [
        ...(derived.actions ?? []),
        {
          code: `${subdomain_list.code}_add`,
          label: 'subdomainPage.apply',
          icon: <GlobalOutlined />,
          onClick: (_rows, c) => setCtx(c),
        },
      ],
    }),
    [],
  );
  const [hooks] = useState<ResourceHooks<Rec>>(() => ({ schema: adjust }));
  return (
    <>
      <ResourcePage def={subdomain_list} hooks={hooks} />
      <ApplyDialog
        open={!!ctx}
        onClose={() => setCtx(null)}
        onDone={() => {
          void ctx?.refresh();
          setCtx(null);
        }}
      />
    </>
  );
}
