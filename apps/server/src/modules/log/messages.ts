import type { Msg } from '@atrium/contract';

/** Texts of the error-log module (the message catalogue's per-module part). */
export const logTexts = {
  sent: { zh: '发送成功', en: 'Sent' },
  timeTooLong: { zh: '错误日志的时间最多 64 个字符', en: 'The time of an error-log entry is at most 64 characters' },
} satisfies Record<string, Msg>;
