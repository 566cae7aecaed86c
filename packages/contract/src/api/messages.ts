import type { Msg } from '../resource/define.ts';

/** Texts of the declared routes' input rules (the message catalogue's part for the API). */
export const apiTexts = {
  logTimeTooLong: { zh: '错误日志的时间最多 64 个字符', en: 'The time of an error-log entry is at most 64 characters' },
} satisfies Record<string, Msg>;
