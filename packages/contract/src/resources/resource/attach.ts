import { defineResource } from '../../resource/define.ts';

/**
 * 附件管理: every file uploaded through put-file (avatars, client licences, e-mail attachments included), with the
 * storage configuration it went to (docs/system-api.md "Files"). Records come from uploads only; an edit renames,
 * a removal deletes the stored object too.
 */
export const attach = defineResource({
  code: 'attach',
  group: 'resource',
  base: '/api/blade-resource/attach',
  label: { zh: '附件管理', en: 'Attachments' },
  scope: 'tenant',
  create: false,
  fields: {
    originalName: {
      kind: 'text',
      label: { zh: '附件原名', en: 'Original name' },
      max: 255,
      pattern: {
        // No control characters, no path separators (docs/system-api.md "Files").
        regex: '^[^\\u0000-\\u001f\\u007f/\\\\]+$',
        message: {
          zh: '附件原名不能含有控制字符、/ 或 \\',
          en: 'The original name cannot hold control characters, / or \\',
        },
      },
      search: 'like',
      sort: true,
      sample: 'report.pdf',
    },
    link: { kind: 'text', label: { zh: '附件地址', en: 'Link' }, readOnly: true, ui: { column: false } },
    name: { kind: 'text', label: { zh: '附件名称', en: 'Stored name' }, readOnly: true, ui: { column: false } },
    extension: {
      kind: 'text',
      label: { zh: '扩展名', en: 'Extension' },
      readOnly: true,
      search: 'eq',
      ui: { width: 90 },
    },
    mime: { kind: 'text', label: { zh: '类型', en: 'Type' }, readOnly: true, ui: { column: false } },
    attachSize: {
      kind: 'int',
      label: { zh: '大小（字节）', en: 'Size (bytes)' },
      readOnly: true,
      sort: true,
      ui: { width: 120 },
    },
    ossCode: {
      kind: 'text',
      label: { zh: '存储配置', en: 'Storage' },
      readOnly: true,
      search: 'eq',
      ui: { width: 120 },
    },
  },
});
