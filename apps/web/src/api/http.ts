import axios, { AxiosError, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { HTTP_TIMEOUT_MS, STATUS_RANGE, website } from '@atrium/contract';
import { useSession } from '../stores/session';
import { navigate, notify } from '../app/notify';
import i18n from '../i18n';
import { classify } from './response';

export type RequestMeta = {
  /** false: send no Blade-Auth header (login, captcha, public calls). */
  isToken?: boolean;
  /** Send the body as application/x-www-form-urlencoded. */
  isSerialize?: boolean;
  /** Send the body as text/plain. */
  textPlain?: boolean;
  /** Statuses rejected silently for this call (no toast). */
  whitelist?: number[];
};

declare module 'axios' {
  interface AxiosRequestConfig {
    meta?: RequestMeta;
  }
}

/** Statuses rejected silently for every call (docs/product.md "Messages and errors" "configured whitelist"). */
export const STATUS_WHITELIST: number[] = [];

NProgress.configure({ showSpinner: false });
const basic = `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`;

export const http = axios.create({
  timeout: HTTP_TIMEOUT_MS,
  withCredentials: true,
  validateStatus: (s) => s >= STATUS_RANGE[0] && s <= STATUS_RANGE[1],
});

http.interceptors.request.use((config: InternalAxiosRequestConfig) => {
  NProgress.start();
  const meta = config.meta ?? {};
  config.headers.set('Authorization', basic);
  config.headers.set('Accept-Language', i18n.language === 'en' ? 'en' : 'zh-CN');
  const token = useSession.getState().token;
  if (token && meta.isToken !== false) config.headers.set(website.tokenHeader, `bearer ${token}`);
  if (meta.isSerialize && config.data && typeof config.data === 'object') {
    config.data = new URLSearchParams(Object.entries(config.data).map(([k, v]) => [k, String(v ?? '')])).toString();
    config.headers.set('Content-Type', 'application/x-www-form-urlencoded');
  }
  if (meta.textPlain) config.headers.set('Content-Type', 'text/plain');
  return config;
});

http.interceptors.response.use(
  (res) => {
    NProgress.done();
    const outcome = classify(res.status, res.data, [...STATUS_WHITELIST, ...(res.config.meta?.whitelist ?? [])]);
    switch (outcome.kind) {
      case 'ok':
        return res;
      case 'silent':
        return Promise.reject(Object.assign(new Error(`status ${res.status}`), { response: res, silent: true }));
      case 'logout':
        useSession.getState().logoutLocal();
        navigate('/login');
        return Promise.reject(new Error('unauthorized'));
      case 'error':
        notify().error(outcome.message);
        return Promise.reject(Object.assign(new Error(outcome.message), { response: res }));
    }
  },
  (err: AxiosError) => {
    NProgress.done();
    notify().error(err.code === 'ECONNABORTED' ? i18n.t('http.timeout') : i18n.t('http.network'));
    return Promise.reject(err);
  },
);

/** GET/POST returning the envelope's data. */
export async function get<T>(url: string, params?: object, config: AxiosRequestConfig = {}): Promise<T> {
  return (await http.get<{ data: T }>(url, { ...config, params })).data.data;
}
export async function post<T>(url: string, data?: unknown, config: AxiosRequestConfig = {}): Promise<T> {
  return (await http.post<{ data: T }>(url, data, config)).data.data;
}
