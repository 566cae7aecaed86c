import type { Msg } from '@atrium/contract';

/** Texts of the log module (the message catalogue's per-module part; docs/server.md "Log viewers"). */
export const logTexts = {
  sent: { zh: '发送成功', en: 'Sent' },
  auditMissing: { zh: '审计记录不存在', en: 'The audit row does not exist' },
  errorMissing: { zh: '错误日志不存在', en: 'The error-log entry does not exist' },
  badAccount: { zh: '账号最多 45 个字符', en: 'An account is at most 45 characters' },
  tooDeep: {
    zh: '列表只分页前 10000 条，请缩小筛选条件',
    en: 'Only the first 10,000 rows are paged: narrow the filters',
  },
} satisfies Record<string, Msg>;
