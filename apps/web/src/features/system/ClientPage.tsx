import { useMemo } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import CrudPage from '../../components/crud/CrudPage';
import type { CrudField, CrudSchema } from '../../components/crud/types';
import { showOnce } from './once';

const fields: CrudField[] = [
  { name: 'clientId', label: 'client.clientId', required: true, search: true },
  // Never shown in the table or a view; left empty, the server generates one and answers it once.
  {
    name: 'clientSecret',
    label: 'client.clientSecret',
    type: 'password',
    secret: true,
    column: false,
    hideInView: true,
    placeholder: 'client.secretHint',
  },
  { name: 'scope', label: 'client.scope', default: 'all' },
  { name: 'authorizedGrantTypes', label: 'client.grantTypes', required: true, default: 'password,refresh_token' },
  { name: 'webServerRedirectUri', label: 'client.redirectUri', column: false },
  { name: 'accessTokenValidity', label: 'client.accessValidity', type: 'number', default: 3000 },
  { name: 'refreshTokenValidity', label: 'client.refreshValidity', type: 'number', default: 604800 },
];

/** 应用管理 (OAuth clients): the secret is shown once, after insert. */
export default function ClientPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const schema = useMemo<CrudSchema>(
    () => ({
      base: '/api/blade-system/client',
      title: 'client.title',
      codes: { add: 'client_add', edit: 'client_edit', delete: 'client_delete', view: 'client_view' },
      fields,
      onSaved: (saved) => {
        const secret = saved.clientSecret;
        if (typeof secret === 'string' && secret && !/^\*+$/.test(secret)) {
          showOnce(modal, t('client.secretTitle'), [
            [t('client.clientId'), String(saved.clientId ?? '')],
            [t('client.clientSecret'), secret],
          ]);
        }
      },
    }),
    [modal, t],
  );
  return <CrudPage schema={schema} />;
}
