import { defineResource } from '../../resource/define.ts';
import { configStatusField, enableAction } from './enabled-config.ts';

/** How the connection is protected: 1 none (plain SMTP), 2 STARTTLS (required), 3 TLS from the start (SMTPS). */
export const TLS_MODES = [1, 2, 3] as const;

/**
 * 邮件配置: a tenant's SMTP servers; `enable` makes one the active one, through which every email of the tenant is
 * sent (docs/outbox.md). The password is stored encrypted and never answered.
 */
export const smtp = defineResource({
  code: 'smtp',
  group: 'resource',
  base: '/api/blade-resource/smtp',
  label: { zh: '邮件配置', en: 'Email (SMTP)' },
  scope: 'tenant',
  dialogWidth: 720,
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
    host: {
      kind: 'text',
      label: { zh: '服务器', en: 'Host' },
      required: true,
      max: 255,
      pattern: {
        regex: '^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\\[[0-9A-Fa-f:.]+\\]$',
        message: { zh: '服务器应为主机名或 IP 地址', en: 'The host is a host name or an IP address' },
      },
      sample: 'smtp.example.com',
      search: 'like',
    },
    port: {
      kind: 'int',
      label: { zh: '端口', en: 'Port' },
      required: true,
      min: 1,
      max: 65535,
      default: 465,
      sample: 465,
    },
    tlsMode: {
      kind: 'dict',
      dict: 'smtp_tls',
      keys: 'int',
      values: [...TLS_MODES],
      options: [
        { value: 1, label: { zh: '不加密', en: 'None' } },
        { value: 2, label: { zh: 'STARTTLS', en: 'STARTTLS' } },
        { value: 3, label: { zh: 'SSL/TLS', en: 'SSL/TLS' } },
      ],
      label: { zh: '加密方式', en: 'TLS' },
      noun: 'TLS mode',
      required: true,
      default: 3,
      sample: 3,
    },
    username: { kind: 'text', label: { zh: '用户名', en: 'User' }, max: 255 },
    // Sealed into another column by the module (docs/outbox.md "Secrets").
    password: {
      kind: 'secret',
      column: false,
      label: { zh: '密码', en: 'Password' },
      max: 256,
      ui: { placeholder: { zh: '留空则不修改', en: 'Empty: unchanged' } },
    },
    fromAddress: {
      kind: 'text',
      label: { zh: '发件地址', en: 'From address' },
      noun: 'sender address',
      required: true,
      max: 255,
      pattern: {
        regex: '^[^\\s@<>",;]+@[^\\s@<>",;]+\\.[^\\s@<>",;]+$',
        message: { zh: '发件地址不是有效的邮箱', en: 'The from address is not an email address' },
      },
      sample: 'noreply@example.com',
      search: 'like',
    },
    fromName: { kind: 'text', label: { zh: '发件人名称', en: 'From name' }, max: 64 },
    remark: { kind: 'text', label: { zh: '备注', en: 'Remark' }, max: 255, ui: { column: false } },
    status: configStatusField,
  },
  actions: {
    enable: enableAction({
      zh: '启用后本租户的邮件都经此服务器发送，其他配置停用，确定吗？',
      en: 'Every email of this tenant will go through this server and the others are switched off. Continue?',
    }),
    test: {
      label: { zh: '发送测试邮件', en: 'Send a test email' },
      target: 'one',
      input: {
        to: {
          kind: 'text',
          label: { zh: '收件地址', en: 'To' },
          noun: 'recipient address',
          required: true,
          max: 255,
          pattern: {
            regex: '^[^\\s@<>",;]+@[^\\s@<>",;]+\\.[^\\s@<>",;]+$',
            message: { zh: '收件地址不是有效的邮箱', en: 'Not an email address' },
          },
          sample: 'someone@example.com',
        },
      },
      done: {
        zh: '测试邮件已加入发送队列，请在发件箱查看结果',
        en: 'The test email is queued: see the outbox for the result',
      },
    },
  },
});
