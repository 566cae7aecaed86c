import { create } from 'zustand';
import { LOG_BADGE_MAX } from '@atrium/contract';
import { getStore, setStore } from './storage';

/** docs/product.md "Records" "Log entry". */
export type LogEntry = { type: string; url: string; message: string; stack: string; info?: string; time: string };

type ErrorLogState = { logs: LogEntry[]; add(e: LogEntry): void; clear(): void };

const MAX_KEPT = 500;

export const useErrorLog = create<ErrorLogState>((set, get) => ({
  logs: getStore<LogEntry[]>({ name: 'logs' }) ?? [],
  add(e) {
    const logs = [e, ...get().logs].slice(0, MAX_KEPT);
    setStore({ name: 'logs', content: logs });
    set({ logs });
  },
  clear() {
    setStore({ name: 'logs', content: [] });
    set({ logs: [] });
  },
}));

/** The number on the header badge: the count, never above 99 (docs/product.md "Constants"). */
export const badgeCount = (n: number) => Math.min(n, LOG_BADGE_MAX);

const now = () => new Date().toLocaleString('zh-CN', { hour12: false });

export function recordError(err: unknown, info = '') {
  const e = err instanceof Error ? err : new Error(String(err));
  useErrorLog
    .getState()
    .add({ type: 'error', url: window.location.href, message: e.message, stack: e.stack ?? '', info, time: now() });
}

let installed = false;
/** Unhandled client errors go to the local log (docs/product.md "Messages and errors"). */
export function installErrorHandlers() {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (ev) => recordError(ev.error ?? ev.message));
  window.addEventListener('unhandledrejection', (ev) => {
    const reason = ev.reason;
    // Rejections of API calls were already shown to the user as a toast; they are not client bugs.
    if (reason && typeof reason === 'object' && ('isAxiosError' in reason || 'response' in reason)) return;
    if (reason instanceof Error && ['unauthorized'].includes(reason.message)) return;
    recordError(reason);
  });
}
