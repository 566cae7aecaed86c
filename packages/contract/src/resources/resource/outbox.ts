import { defineResource } from '../../resource/define.ts';

/** Outbox states: queued (waiting or retrying), sent, failed (attempts used up). */
export const OUTBOX_STATES = { queued: 1, sent: 2, failed: 3 } as const;

/**
 * 发件箱: every SMS and every email, as queued by the modules and delivered by the server's worker (docs/outbox.md).
 * Read-only: list and detail only; nobody writes a message here by hand (docs/resources.md "Read-only resources").
 */
export const outbox = defineResource({
  code: 'outbox',
  group: 'resource',
  base: '/api/blade-resource/outbox',
  label: { zh: '发件箱', en: 'Outbox' },
  scope: 'tenant',
  readOnly: true,
  dialogWidth: 760,
  fields: {
    channel: {
      kind: 'dict',
      dict: 'outbox_channel',
      keys: 'string',
      values: ['sms', 'email'],
      options: [
        { value: 'sms', label: { zh: '短信', en: 'SMS' } },
        { value: 'email', label: { zh: '邮件', en: 'Email' } },
      ],
      label: { zh: '渠道', en: 'Channel' },
      readOnly: true,
      search: 'eq',
      ui: { width: 90 },
    },
    recipient: {
      kind: 'text',
      label: { zh: '接收人', en: 'Recipient' },
      readOnly: true,
      search: 'like',
      sort: true,
    },
    subject: { kind: 'text', label: { zh: '主题', en: 'Subject' }, readOnly: true },
    content: {
      kind: 'textarea',
      label: { zh: '内容', en: 'Text' },
      readOnly: true,
      ui: { viewOnly: true, form: true },
    },
    templateCode: { kind: 'text', label: { zh: '模板编号', en: 'Template' }, readOnly: true, search: 'eq' },
    params: { kind: 'textarea', label: { zh: '模板参数', en: 'Parameters' }, readOnly: true, ui: { viewOnly: true } },
    attachIds: { kind: 'text', label: { zh: '附件', en: 'Attachments' }, readOnly: true, ui: { column: false } },
    status: {
      kind: 'dict',
      dict: 'outbox_status',
      keys: 'int',
      values: [1, 2, 3],
      options: [
        { value: 1, label: { zh: '排队中', en: 'Queued' } },
        { value: 2, label: { zh: '已发送', en: 'Sent' } },
        { value: 3, label: { zh: '发送失败', en: 'Failed' } },
      ],
      label: { zh: '状态', en: 'Status' },
      readOnly: true,
      search: 'eq',
      ui: { width: 100 },
    },
    attempts: { kind: 'int', label: { zh: '尝试次数', en: 'Attempts' }, readOnly: true, ui: { width: 90 } },
    nextAttemptTime: {
      kind: 'datetime',
      label: { zh: '下次尝试', en: 'Next attempt' },
      readOnly: true,
      ui: { column: false },
    },
    sentTime: { kind: 'datetime', label: { zh: '发送时间', en: 'Sent at' }, readOnly: true, sort: true },
    provider: { kind: 'text', label: { zh: '发送通道', en: 'Provider' }, readOnly: true, search: 'eq' },
    lastError: {
      kind: 'textarea',
      label: { zh: '最近错误', en: 'Last error' },
      readOnly: true,
      ui: { viewOnly: true },
    },
  },
});
