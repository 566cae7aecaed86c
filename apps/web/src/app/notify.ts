import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Non-React code (the http client, stores) reaches antd's message and the router through here;
 * App registers the themed message instance and the router's navigate once mounted.
 */
let messageApi: MessageInstance | null = null;
let navigator: ((to: string) => void) | null = null;

type Level = 'success' | 'error' | 'info' | 'warning';
export type Notifier = Record<Level, (content: string) => unknown>;

/**
 * Before the shell is mounted (the login page), antd's static message is loaded at its first use, so it stays out
 * of the login page's bundle (docs/web.md "Bundle budget").
 */
const lateStatic = Object.fromEntries(
  (['success', 'error', 'info', 'warning'] as const).map((level) => [
    level,
    (content: string) => import('antd/es/message').then(({ default: message }) => message[level](content)),
  ]),
) as Notifier;

export const setMessageApi = (api: MessageInstance) => {
  messageApi = api;
};
export const notify = (): Notifier => messageApi ?? lateStatic;
export const setNavigator = (fn: (to: string) => void) => {
  navigator = fn;
};
export const navigate = (to: string) => {
  if (navigator) navigator(to);
  else window.location.assign(to);
};
