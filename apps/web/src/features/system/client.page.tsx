import { useCallback } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { client } from '@atrium/contract/resources/system/client';
import CrudPage from '../../components/crud/CrudPage';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import type { CrudSchema } from '../../components/crud/types';
import { showOnce } from './once';

/** 应用管理 (OAuth clients) from its definition: a generated secret is shown once, after insert. */
export default function ClientPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const adjust = useCallback(
    (s: CrudSchema): CrudSchema => ({
      ...s,
      onSaved: (saved) => {
        const secret = saved.clientSecret;
        if (typeof secret === 'string' && secret && !/^\*+$/.test(secret)) {
          showOnce(modal, t('client.secretTitle'), [
            [t('client:fields.clientId.label'), String(saved.clientId ?? '')],
            [t('client:fields.clientSecret.label'), secret],
          ]);
        }
      },
    }),
    [modal, t],
  );
  return <CrudPage schema={useResourceSchema(client, adjust)} />;
}
