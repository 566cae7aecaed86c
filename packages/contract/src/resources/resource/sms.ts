import { defineResource } from '../../resource/define.ts';
import { configCodeField, configStatusField, enableAction } from './enabled-config.ts';

/** How a configuration sends: 1 outbox only (recorded, not delivered), 2 Aliyun, 3 Tencent Cloud, 4 HTTP webhook. */
export const SMS_CATEGORIES = [1, 2, 3, 4] as const;
/** A configuration's status: 1 not in use, 2 the tenant's active one (at most one). */
export const CONFIG_STATUS = { off: 1, on: 2 } as const;

const httpUrl = {
  regex: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+([/?#]\\S*)?$',
  message: { zh: '地址必须以 http:// 或 https:// 开头', en: 'The address must start with http:// or https://' },
};

/**
 * 短信配置: a tenant's SMS configurations; `enable` makes one the active one, through which every SMS of the tenant
 * is sent (docs/outbox.md). The secret key is stored encrypted and never answered.
 */
export const sms = defineResource({
  code: 'sms',
  group: 'resource',
  base: '/api/blade-resource/sms',
  label: { zh: '短信配置', en: 'SMS configurations' },
  scope: 'tenant',
  dialogWidth: 760,
  fields: {
    smsCode: configCodeField,
    category: {
      kind: 'dict',
      dict: 'sms',
      keys: 'int',
      values: [...SMS_CATEGORIES],
      options: [
        { value: 1, label: { zh: '仅发件箱', en: 'Outbox only' } },
        { value: 2, label: { zh: '阿里云', en: 'Aliyun' } },
        { value: 3, label: { zh: '腾讯云', en: 'Tencent Cloud' } },
        { value: 4, label: { zh: 'HTTP 回调', en: 'HTTP webhook' } },
      ],
      label: { zh: '分类', en: 'Category' },
      required: true,
      search: 'eq',
      sample: 1,
    },
    templateId: { kind: 'text', label: { zh: '模板编号', en: 'Template ID' }, max: 64, search: 'like' },
    content: {
      kind: 'textarea',
      label: { zh: '模板内容', en: 'Template text' },
      max: 500,
      ui: { placeholder: { zh: '如：您的验证码为 ${code}', en: 'e.g. Your code is ${code}' } },
    },
    signName: { kind: 'text', label: { zh: '短信签名', en: 'Signature' }, max: 64 },
    accessKey: {
      kind: 'text',
      label: { zh: 'AccessKey', en: 'Access key' },
      max: 128,
      ui: { column: false, showWhen: { field: 'category', in: [2, 3] } },
    },
    // Sealed into another column by the module (docs/outbox.md "Secrets").
    secretKey: {
      kind: 'secret',
      column: false,
      label: { zh: 'SecretKey', en: 'Secret key' },
      max: 256,
      ui: {
        placeholder: { zh: '留空则不修改', en: 'Empty: unchanged' },
        showWhen: { field: 'category', in: [2, 3, 4] },
      },
    },
    appId: {
      kind: 'text',
      label: { zh: '应用 ID', en: 'App ID' },
      max: 64,
      ui: { column: false, showWhen: { field: 'category', in: [3] } },
    },
    region: {
      kind: 'text',
      label: { zh: '地域', en: 'Region' },
      max: 64,
      ui: { column: false, showWhen: { field: 'category', in: [2, 3] } },
    },
    endpoint: {
      kind: 'text',
      label: { zh: '接口地址', en: 'Endpoint' },
      max: 500,
      pattern: httpUrl,
      sample: 'https://sms.example.com/hook',
      ui: {
        column: false,
        placeholder: {
          zh: 'HTTP 回调必填；阿里云、腾讯云留空用官方地址',
          en: 'Required for a webhook; empty: the provider’s own',
        },
      },
    },
    remark: { kind: 'text', label: { zh: '备注', en: 'Remark' }, max: 255, ui: { column: false } },
    status: configStatusField,
  },
  actions: {
    enable: enableAction({
      zh: '启用后本租户的短信都经此配置发送，其他配置停用，确定吗？',
      en: 'Every SMS of this tenant will go through this configuration and the others are switched off. Continue?',
    }),
  },
});
