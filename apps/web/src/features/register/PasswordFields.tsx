import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { passwordPolicyError } from '@atrium/contract';
import { checkRule } from './shared';

/**
 * A new password and its confirmation, checked live by the contract's password policy for `account` (the same
 * policy the server applies): the registration's and the forgotten password's.
 */
export function PasswordFields(p: { label: string; account: string; dependsOn?: string[] }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={p.label}
        dependencies={p.dependsOn}
        rules={[
          { required: true, message: t('clientReg.passwordRequired') },
          checkRule((v) => passwordPolicyError(v, p.account), i18n.language),
        ]}
      >
        <Input.Password autoComplete="new-password" maxLength={64} />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('clientReg.confirm')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('clientReg.confirmRequired') },
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              !value || value === getFieldValue('password')
                ? Promise.resolve()
                : Promise.reject(new Error(t('clientReg.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" maxLength={64} />
      </Form.Item>
    </>
  );
}
