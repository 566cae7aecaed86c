import type { Msg } from '@atrium/contract';

/** Texts of the server platform (guard, CRUD helpers, request fields) — the message catalogue's per-module part. */
export const platformTexts = {
  mustChangeFirst: { zh: '请先修改密码', en: 'Change your password first' },
  /** A token of a tenant past its expiry (platform/live.ts); the auth module's login says the same. */
  tenantExpired: { zh: '租户已过期', en: 'The tenant has expired' },
  /** A tenant whose rows are being moved between databases (docs/tenants.md "What a move refuses"). */
  tenantMoving: {
    zh: '租户数据正在迁移，请稍后重试',
    en: "The tenant's data is being moved; try again shortly",
  },
  /** `{name}`: a list parameter that takes an id. */
  idParam: { zh: '参数 {name} 必须是数字编号', en: '{name} must be a numeric id' },
  /** `{max}`: the field's longest text. */
  atMost: { zh: '最多 {max} 个字符', en: 'At most {max} characters' },
} satisfies Record<string, Msg>;

/** Texts of the no-escalation rules (platform/privilege.ts). */
export const privilegeTexts = {
  notCovered: {
    zh: '对方拥有您没有的权限，您不能操作该{what}',
    en: 'This {what} holds permissions you do not hold; you cannot act on it',
  },
  beyondOwn: { zh: '不能授予超出自身的权限', en: 'You cannot grant more than you hold yourself' },
  broaderData: {
    zh: '不能授予比您自己更宽的数据权限（{resource}）',
    en: 'You cannot grant a broader data scope than your own ({resource})',
  },
  adminRoleFixed: {
    zh: '管理员角色拥有租户的全部权限，其授权不能修改（平台管理员可在租户管理中修复）',
    en: "The administrator role holds all of the tenant's permissions; its grants cannot be changed (the platform administrator can repair it under Tenants)",
  },
  lastAdmin: {
    zh: '租户至少要保留一个可用的管理员',
    en: 'The tenant must keep at least one working administrator',
  },
  scopeHeld: {
    zh: '该权限已授予角色，只有管理员可以修改或删除',
    en: 'Roles hold this scope; only the administrator can change or remove it',
  },
  user: { zh: '用户', en: 'user' },
  role: { zh: '角色', en: 'role' },
  topmenu: { zh: '顶部菜单', en: 'top menu' },
} satisfies Record<string, Msg>;
