import { shell, type Captcha, type TokenResponse } from '@atrium/contract';
import { call } from './call';

/** MD5 hex of what was typed; js-md5 is loaded at the first use, so it stays out of the login page's bundle. */
export const hashPassword = async (typed: string) => (await import('js-md5')).md5(typed);

export async function fetchCaptcha(): Promise<Captcha> {
  return call(shell.captcha, {}, { meta: { isToken: false } });
}

export type LoginForm = {
  tenantId: string;
  username: string;
  password: string;
  captchaKey?: string;
  captchaCode?: string;
};

/** docs/system-api.md: grant captcha when captcha mode is on; the password travels as its MD5 hex. */
export async function loginByUsername(f: LoginForm, captchaMode: boolean): Promise<TokenResponse> {
  const query = {
    tenantId: f.tenantId,
    username: f.username,
    password: await hashPassword(f.password),
    grant_type: captchaMode ? 'captcha' : 'password',
    scope: 'all',
    type: 'account',
  };
  return call(
    shell.token,
    { query },
    {
      meta: { isToken: false },
      headers: {
        'Tenant-Id': f.tenantId,
        ...(captchaMode ? { 'Captcha-Key': f.captchaKey ?? '', 'Captcha-Code': f.captchaCode ?? '' } : {}),
      },
    },
  );
}

export async function refreshToken(refresh: string, tenantId: string): Promise<TokenResponse> {
  return call(
    shell.token,
    { query: { tenantId, refresh_token: refresh, grant_type: 'refresh_token', scope: 'all' } },
    { meta: { isToken: false }, headers: { 'Tenant-Id': tenantId } },
  );
}

export const logout = () => call(shell.logout);
export const getUserInfo = () => call(shell.oauthUserInfo);
export const clearCache = () => call(shell.clearCache);
export const tenantInfo = (domain: string) =>
  call(shell.tenantInfo, { query: { domain } }, { meta: { isToken: false } });
