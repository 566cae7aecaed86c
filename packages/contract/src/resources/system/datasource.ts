import { defineResource } from '../../resource/define.ts';

/**
 * 数据源管理 (docs/tenants.md "Data sources"): PostgreSQL databases a tenant may be moved to (`tenant/datasource`),
 * the platform administrator's alone and kept on the main database. The URL names host, port and database only; the
 * user is a field of its own and the password is stored sealed and answered as the mask.
 */
export const datasource = defineResource({
  code: 'datasource',
  group: 'system',
  base: '/api/blade-system/datasource',
  label: { zh: '数据源管理', en: 'Data sources' },
  scope: 'platform',
  fields: {
    name: {
      kind: 'text',
      label: { zh: '名称', en: 'Name' },
      required: true,
      max: 64,
      unique: { zh: '名称已存在', en: 'This name is already used' },
      search: 'like',
      sort: true,
    },
    url: {
      kind: 'text',
      label: { zh: '连接地址', en: 'URL' },
      noun: 'URL',
      required: true,
      max: 512,
      pattern: {
        regex: '^postgres(ql)?://([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\])(:\\d{1,5})?/[A-Za-z0-9_$-]{1,63}$',
        message: {
          zh: '连接地址应为 postgres://主机[:端口]/数据库（用户和密码另填）',
          en: 'The URL is postgres://host[:port]/database (user and password go in their own fields)',
        },
      },
      sample: 'postgres://db.example.com:5432/atrium_tenant',
      search: 'like',
    },
    username: {
      kind: 'text',
      label: { zh: '用户名', en: 'User' },
      required: true,
      max: 63,
      pattern: {
        regex: '^[A-Za-z0-9_.-]+$',
        message: { zh: '用户名只能包含字母、数字、_ . -', en: 'Letters, digits, _ . - only' },
      },
      sample: 'atrium',
    },
    // Sealed into another column by the module (docs/outbox.md "Secrets").
    password: {
      kind: 'secret',
      column: false,
      mask: '******',
      label: { zh: '密码', en: 'Password' },
      max: 256,
      ui: { placeholder: { zh: '留空则不修改', en: 'Empty: unchanged' } },
    },
    remark: { kind: 'text', label: { zh: '备注', en: 'Remark' }, max: 255, ui: { column: false } },
  },
  actions: {
    test: {
      label: { zh: '测试连接', en: 'Test connection' },
      target: 'one',
      done: { zh: '连接成功', en: 'Connected' },
    },
  },
});
