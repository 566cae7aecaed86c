import { defineResource } from '../../resource/define.ts';

/** 跟踪方式 of a follow-up (docs/clients.md "Client tracking"): 1 call, 2 visit, 3 email, 4 message. */
export const TRACK_TYPES = { call: 1, visit: 2, email: 3, message: 4 } as const;

/**
 * 客户跟踪: the follow-up records of clients (docs/clients.md "Client tracking"). Read-only here: a record is written
 * by `clientInfo/customerTrack` (or by a sent email), the one way to write one. Rows follow the data scope of their
 * client (a region admin sees the follow-ups of its region's clients).
 */
export const clienttrack = defineResource({
  code: 'clienttrack',
  group: 'customer',
  base: '/api/blade-business/clientTrack',
  label: { zh: '客户跟踪', en: 'Client tracking' },
  scope: 'tenant',
  readOnly: true,
  defaultSort: 'trackTime desc',
  createTimeRange: false,
  dialogWidth: 720,
  fields: {
    clientId: {
      kind: 'ref',
      ref: 'clientinfo',
      options: { url: '/api/blade-business/clientInfo/clientList', value: 'id', label: 'clientName' },
      label: { zh: '客户', en: 'Client' },
      readOnly: true,
      search: 'eq',
      // The column and the view show the client's name; the id is the filter's value only.
      ui: { display: 'clientName', form: false },
    },
    clientName: {
      kind: 'text',
      label: { zh: '客户', en: 'Client' },
      virtual: true,
      ui: { column: false, form: true, viewOnly: true },
    },
    trackType: {
      kind: 'dict',
      dict: 'client_track_type',
      keys: 'int',
      values: [1, 2, 3, 4],
      options: [
        { value: 1, label: { zh: '电话', en: 'Call' } },
        { value: 2, label: { zh: '拜访', en: 'Visit' } },
        { value: 3, label: { zh: '邮件', en: 'Email' } },
        { value: 4, label: { zh: '短信', en: 'Message' } },
      ],
      label: { zh: '跟踪方式', en: 'Track type' },
      readOnly: true,
      search: 'eq',
      ui: { width: 100, form: true },
    },
    content: {
      kind: 'textarea',
      max: 2000,
      label: { zh: '跟踪内容', en: 'Content' },
      readOnly: true,
      ui: { column: true, width: 280, form: true },
    },
    trackerName: {
      kind: 'text',
      max: 50,
      label: { zh: '跟踪人', en: 'Tracker' },
      readOnly: true,
      search: 'like',
      ui: { width: 120, form: true },
    },
    trackTime: {
      kind: 'datetime',
      label: { zh: '跟踪时间', en: 'Track time' },
      readOnly: true,
      search: 'range',
      sort: true,
      ui: { form: true },
    },
    nextTrackTime: {
      kind: 'datetime',
      label: { zh: '下次跟踪时间', en: 'Next track time' },
      readOnly: true,
      search: 'range',
      sort: true,
      ui: { form: true },
    },
  },
});
