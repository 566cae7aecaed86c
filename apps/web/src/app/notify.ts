import { message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Non-React code (the http client, stores) reaches antd's message and the router through here;
 * App registers the themed message instance and the router's navigate once mounted.
 */
let messageApi: MessageInstance | null = null;
let navigator: ((to: string) => void) | null = null;

export const setMessageApi = (api: MessageInstance) => {
  messageApi = api;
};
export const notify = () => messageApi ?? staticMessage;
export const setNavigator = (fn: (to: string) => void) => {
  navigator = fn;
};
export const navigate = (to: string) => {
  if (navigator) navigator(to);
  else window.location.assign(to);
};
