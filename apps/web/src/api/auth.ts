import type { Captcha, TokenResponse, UserInfo } from '@atrium/contract';
import { http, get } from './http';

/** MD5 hex of what was typed; js-md5 is loaded at the first use, so it stays out of the login page's bundle. */
export const hashPassword = async (typed: string) => (await import('js-md5')).md5(typed);

export async function fetchCaptcha(): Promise<Captcha> {
  return (await http.get<Captcha>('/api/blade-auth/oauth/captcha', { meta: { isToken: false } })).data;
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
  const res = await http.post<TokenResponse>('/api/blade-auth/oauth/token', null, {
    meta: { isToken: false },
    headers: {
      'Tenant-Id': f.tenantId,
      ...(captchaMode ? { 'Captcha-Key': f.captchaKey ?? '', 'Captcha-Code': f.captchaCode ?? '' } : {}),
    },
    params: {
      tenantId: f.tenantId,
      username: f.username,
      password: await hashPassword(f.password),
      grant_type: captchaMode ? 'captcha' : 'password',
      scope: 'all',
      type: 'account',
    },
  });
  return res.data;
}

export async function refreshToken(refresh: string, tenantId: string): Promise<TokenResponse> {
  const res = await http.post<TokenResponse>('/api/blade-auth/oauth/token', null, {
    meta: { isToken: false },
    headers: { 'Tenant-Id': tenantId },
    params: { tenantId, refresh_token: refresh, grant_type: 'refresh_token', scope: 'all' },
  });
  return res.data;
}

export const logout = () => get<boolean>('/api/blade-auth/oauth/logout');
export const getUserInfo = () => get<UserInfo>('/api/blade-auth/oauth/user-info');
export const clearCache = () => get<boolean>('/api/blade-auth/oauth/clear-cache');
export const tenantInfo = (domain: string) =>
  get<{ tenantId: string; tenantName: string } | null>(
    '/api/blade-system/tenant/info',
    { domain },
    { meta: { isToken: false } },
  );
