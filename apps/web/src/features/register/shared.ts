import '../customer/messages';
import { useEffect, useState } from 'react';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { website, type Message } from '@atrium/contract';
import { tenantInfo } from '../../api/auth';
import { langOf } from '../../components/crud/texts';

/** A mainland mobile number (the definition's and the server's rule). */
export const PHONE = /^1[3-9]\d{9}$/;

/** The tenant of the public pages: `?tenant=`, else the one of this host name, else the default (as on login). */
export function useTenantDefault(fromQuery: string | null): [string, (v: string) => void] {
  const [tenantId, setTenantId] = useState(fromQuery || website.defaultTenantId);
  const [touched, setTouched] = useState(!!fromQuery);
  useEffect(() => {
    if (touched) return;
    let live = true;
    tenantInfo(window.location.hostname)
      .then((info) => {
        if (live && info?.tenantId) setTenantId(info.tenantId);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [touched]);
  return [
    tenantId,
    (v: string) => {
      setTouched(true);
      setTenantId(v);
    },
  ];
}

/** A contract check (`validateCreditCode`, …) as an antd rule, in the current language. */
export const checkRule =
  (check: (v: string) => Message | null, language: string, optional = false): Rule =>
  () => ({
    validator: (_: unknown, value: unknown) => {
      const v = String(value ?? '').trim();
      if (optional && !v) return Promise.resolve();
      const bad = check(v);
      return bad ? Promise.reject(new Error(bad[langOf(language)])) : Promise.resolve();
    },
  });

export const phoneRules = (t: TFunction): Rule[] => [
  { required: true, message: t('clientReg.phoneRequired') },
  { pattern: PHONE, message: t('clientReg.phoneBad') },
];
