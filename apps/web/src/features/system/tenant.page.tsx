import { useCallback } from 'react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { tenant } from '@atrium/contract/resources/system/tenant';
import CrudPage from '../../components/crud/CrudPage';
import { DATE_FORMAT } from '../../components/crud/FieldInput';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import type { CrudSchema } from '../../components/crud/types';
import { showOnce } from './once';

type Repaired = { tenantId: string; account: string; password: string };

/**
 * 租户管理 from its definition: a new tenant's administrator account and password are shown once, and so is the
 * one-time password of 修复管理员; 授权配置 (the definition's `setting`) sets accounts and expiry; no quota and
 * no expiry read 不限.
 */
export default function TenantPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const adjust = useCallback(
    (s: CrudSchema): CrudSchema => {
      const unlimited = t('tenant.unlimited');
      const render: Record<string, (v: unknown) => string> = {
        accountNumber: (v) => (v === -1 || v === '-1' || v === null || v === undefined ? unlimited : String(v)),
        expireTime: (v) => (v ? dayjs(v as string).format(DATE_FORMAT) : unlimited),
      };
      const label = (name: string) => t(`tenant:fields.${name}.label`);
      return {
        ...s,
        fields: s.fields.map((f) => (render[f.name] ? { ...f, render: render[f.name] } : f)),
        lifecycle: s.lifecycle?.map((a) =>
          a.name === 'repair-admin'
            ? {
                ...a,
                onDone: (answer) => {
                  const done = answer as Repaired;
                  showOnce(modal, t('tenant.repairTitle'), [
                    [label('tenantId'), done.tenantId],
                    [t('tenant.adminAccount'), done.account],
                    [t('tenant.oneTimePassword'), done.password],
                  ]);
                },
              }
            : a,
        ),
        onSaved: (saved, mode) => {
          if (mode === 'add' && saved.adminAccount) {
            showOnce(modal, t('tenant.adminTitle'), [
              [label('tenantId'), String(saved.tenantId ?? '')],
              [t('tenant.adminAccount'), String(saved.adminAccount)],
              [t('tenant.adminPassword'), String(saved.adminPassword ?? '')],
            ]);
          }
        },
      };
    },
    [modal, t],
  );
  return <CrudPage schema={useResourceSchema(tenant, adjust)} />;
}
