import { defineResource } from '../../resource/define.ts';

/** What a blacklist entry blocks: its `value` is read by this type. */
export const BLACK_TYPES = [1, 2, 3, 4, 5] as const;

/**
 * 黑名单: phones, IPs or CIDR ranges, words, email domains and device codes refused where they would enter
 * (docs/resources.md lists where). Entries of the platform tenant apply to every tenant.
 */
export const blackinfo = defineResource({
  code: 'blackinfo',
  group: 'blacklist',
  base: '/api/blade-business/blackinfo',
  label: { zh: '黑名单信息', en: 'Blacklist entries' },
  scope: 'tenant',
  fields: {
    type: {
      kind: 'dict',
      dict: 'black_type',
      keys: 'int',
      values: [...BLACK_TYPES],
      options: [
        { value: 1, label: { zh: '手机号', en: 'Phone' } },
        { value: 2, label: { zh: 'IP 或网段', en: 'IP or CIDR' } },
        { value: 3, label: { zh: '敏感词', en: 'Word' } },
        { value: 4, label: { zh: '邮箱域名', en: 'Email domain' } },
        { value: 5, label: { zh: '设备编码', en: 'Device code' } },
      ],
      label: { zh: '类型', en: 'Type' },
      required: true,
      search: 'in',
      sort: true,
      sample: 3,
    },
    value: {
      kind: 'text',
      label: { zh: '值', en: 'Value' },
      required: true,
      search: 'like',
      unique: { zh: '该类型下已有此值', en: 'This value is already listed for this type' },
      sample: 'forbidden-word',
    },
    reason: { kind: 'text', label: { zh: '原因', en: 'Reason' }, search: 'like' },
    expireTime: {
      kind: 'datetime',
      label: { zh: '失效时间', en: 'Expires' },
      search: 'range',
      sort: true,
      ui: { placeholder: { zh: '留空表示永久', en: 'Empty: never' } },
    },
    status: {
      kind: 'dict',
      dict: 'black_status',
      keys: 'int',
      values: [0, 1],
      options: [
        { value: 1, label: { zh: '启用', en: 'Active' } },
        { value: 0, label: { zh: '停用', en: 'Inactive' } },
      ],
      label: { zh: '状态', en: 'Status' },
      default: 1,
      search: 'eq',
    },
  },
});
