import { defineResource } from '../../resource/define.ts';

const quota = {
  kind: 'int',
  min: -1,
  max: 10_000_000,
  invalid: { zh: '账号额度须为 -1（不限）或正整数', en: 'Quota is -1 (unlimited) or a positive number' },
  label: { zh: '账号额度', en: 'Account quota' },
} as const;
const expireTime = { kind: 'datetime', label: { zh: '过期时间', en: 'Expires' }, sort: true } as const;

/**
 * 租户管理 (platform administrator only): creating a tenant provisions its administrator role and account, a
 * department and its menus in the same transaction; the one-time password is answered once.
 */
export const tenant = defineResource({
  code: 'tenant',
  group: 'system',
  base: '/api/blade-system/tenant',
  label: { zh: '租户管理', en: 'Tenants' },
  scope: 'platform',
  defaultSort: 'tenantId',
  fields: {
    tenantId: {
      kind: 'text',
      createOnly: true,
      label: { zh: '租户编号', en: 'Tenant id' },
      pattern: { regex: '^\\d{6}$', message: { zh: '租户编号须为 6 位数字', en: 'The tenant id has 6 digits' } },
      unique: { zh: '租户编号已存在', en: 'The tenant id already exists' },
      search: 'like',
      sort: true,
      sample: '739001',
      ui: { placeholder: { zh: '留空自动生成 6 位编号', en: 'Empty: a 6-digit ID is generated' } },
    },
    tenantName: {
      kind: 'text',
      label: { zh: '租户名称', en: 'Tenant name' },
      required: { zh: '请输入租户名称', en: 'Enter the tenant name' },
      search: 'like',
      sort: true,
    },
    domain: {
      kind: 'text',
      label: { zh: '域名地址', en: 'Domain' },
      pattern: { regex: '^[A-Za-z0-9.-]+(:\\d+)?$', message: { zh: '域名格式不正确', en: 'Bad domain' } },
      unique: { zh: '域名已被其他租户使用', en: 'The domain is used by another tenant' },
      search: 'like',
      sample: 'sample.example.com',
    },
    backgroundUrl: {
      kind: 'text',
      label: { zh: '系统背景', en: 'Background' },
      pattern: {
        regex: '^(https?://|/)',
        message: { zh: '背景图地址须以 http、https 或 / 开头', en: 'The URL starts with http, https or /' },
      },
      ui: { column: false },
      sample: '/files/bg.png',
    },
    linkman: { kind: 'text', label: { zh: '联系人', en: 'Contact' }, search: 'like' },
    contactNumber: { kind: 'text', label: { zh: '联系电话', en: 'Phone' } },
    address: { kind: 'textarea', label: { zh: '联系地址', en: 'Address' } },
    accountNumber: { ...quota, default: -1, ui: { placeholder: { zh: '-1 表示不限', en: '-1 means unlimited' } } },
    expireTime,
  },
  actions: {
    setting: {
      label: { zh: '授权配置', en: 'Settings' },
      target: 'many',
      input: { accountNumber: { ...quota, required: true }, expireTime },
      done: { zh: '配置成功', en: 'Saved' },
    },
    /**
     * The platform administrator's repair of a tenant whose administrator was broken: the administrator role gets
     * the tenant's whole package again, and the account admin is enabled, holds it, and gets a one-time password.
     */
    'repair-admin': {
      label: { zh: '修复管理员', en: 'Repair administrator' },
      code: 'tenant_setting',
      confirm: {
        zh: '将恢复该租户管理员角色的全部菜单，并为账号 admin 生成一次性密码，确定?',
        en: 'Give the administrator role its full package again and issue a one-time password to the account admin?',
      },
      done: { zh: '修复成功', en: 'Administrator repaired' },
    },
  },
});
