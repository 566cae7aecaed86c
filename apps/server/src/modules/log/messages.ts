import type { Msg } from '@atrium/contract';

/** Texts of the error-log module (the message catalogue's per-module part). */
export const logTexts = {
  sent: { zh: '发送成功', en: 'Sent' },
} satisfies Record<string, Msg>;
