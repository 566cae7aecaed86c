import { create } from 'zustand';

/** Keep-alive bookkeeping: a nonce per tab, bumped to remount just that tab ("refresh"). */
export const useCache = create<{ nonce: Record<string, number>; refresh(key: string): void }>((set) => ({
  nonce: {},
  refresh: (key) => set((s) => ({ nonce: { ...s.nonce, [key]: (s.nonce[key] ?? 0) + 1 } })),
}));
