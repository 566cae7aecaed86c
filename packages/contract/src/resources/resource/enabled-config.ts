import type { ActionDef, DictField, Msg, TextField } from '../../resource/define.ts';

/**
 * What the configurations of which one per tenant is in use share (SMS, SMTP, object storage — docs/resources.md
 * "Kinds and columns"): the read-only status field and the `enable` action that switches the others off.
 */

export const configStatusField = {
  kind: 'dict',
  dict: 'config_status',
  keys: 'int',
  values: [1, 2],
  options: [
    { value: 1, label: { zh: '未启用', en: 'Off' } },
    { value: 2, label: { zh: '启用中', en: 'In use' } },
  ],
  label: { zh: '是否启用', en: 'In use' },
  readOnly: true,
  search: 'eq',
} as const satisfies DictField;

/** The configuration's own code (`smsCode`, `ossCode`): unique in the tenant, letters, digits, `_` and `-`. */
export const configCodeField = {
  kind: 'text',
  label: { zh: '资源编号', en: 'Code' },
  required: true,
  max: 64,
  pattern: {
    regex: '^[A-Za-z0-9_-]+$',
    message: { zh: '资源编号只能包含字母、数字、_ 和 -', en: 'Letters, digits, _ and - only' },
  },
  unique: { zh: '资源编号已存在', en: 'This code is already used' },
  search: 'like',
  sort: true,
} as const satisfies TextField;

/** The `enable` action, with the configuration's own confirmation. */
export const enableAction = (confirm: Msg) =>
  ({
    label: { zh: '启用', en: 'Enable' },
    to: 2,
    target: 'one',
    confirm,
    done: { zh: '启用成功', en: 'Enabled' },
  }) as const satisfies ActionDef;
