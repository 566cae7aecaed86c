import { defineResource } from '../../resource/define.ts';

/** A notice's states: a draft is seen by the notice editors only; a published notice by everyone of the tenant. */
export const NOTICE_STATES = { draft: 1, published: 2 } as const;

/** The longest content kept (characters of sanitised HTML). */
export const NOTICE_CONTENT_MAX = 100_000;

/**
 * 通知公告 (docs/notices.md): a tenant's notices — title, category (the system dictionary `notice`), release time,
 * rich-text content (sanitised by the server on every save) and status. Published notices released by now are read
 * by every user of the tenant (the bell, the read view); the list, drafts and writes need the notice codes.
 */
export const notice = defineResource({
  code: 'notice',
  group: 'desk',
  base: '/api/blade-desk/notice',
  label: { zh: '通知公告', en: 'Notices' },
  scope: 'tenant',
  defaultSort: 'releaseTime desc',
  dialogWidth: 900,
  fields: {
    title: {
      kind: 'text',
      max: 128,
      label: { zh: '标题', en: 'Title' },
      required: true,
      search: 'like',
      sort: true,
      sample: 'Maintenance tonight',
    },
    category: {
      kind: 'dict',
      dict: 'notice',
      keys: 'int',
      label: { zh: '通知类型', en: 'Category' },
      required: true,
      search: 'in',
      sample: 1,
      ui: { width: 120 },
    },
    releaseTime: {
      kind: 'datetime',
      label: { zh: '发布时间', en: 'Release time' },
      required: true,
      search: 'range',
      sort: true,
      ui: { width: 170 },
    },
    status: {
      kind: 'dict',
      dict: 'notice_status',
      keys: 'int',
      values: [NOTICE_STATES.draft, NOTICE_STATES.published],
      options: [
        { value: NOTICE_STATES.draft, label: { zh: '草稿', en: 'Draft' } },
        { value: NOTICE_STATES.published, label: { zh: '已发布', en: 'Published' } },
      ],
      label: { zh: '状态', en: 'Status' },
      default: NOTICE_STATES.draft,
      search: 'eq',
      ui: { width: 100 },
    },
    content: {
      kind: 'textarea',
      max: NOTICE_CONTENT_MAX,
      label: { zh: '内容', en: 'Content' },
      required: true,
      sample: '<p>The <strong>network</strong> is down from 22:00.</p>',
      ui: { column: false, widget: 'richtext' },
    },
  },
});
