import { defineResource } from '../../resource/define.ts';

const roleIds = {
  kind: 'ref',
  ref: 'role',
  options: { url: '/api/blade-system/role/tree', tree: true },
  multiple: true,
  column: false,
  label: { zh: '所属角色', en: 'Roles' },
  ui: { display: 'roleName' },
} as const;

/**
 * 用户管理: a tenant's accounts. Passwords are set, never read: the first one on insert (as typed, checked by the
 * policy), later ones by reset or by the user. Roles live in a link table.
 */
export const user = defineResource({
  code: 'user',
  group: 'system',
  base: '/api/blade-user',
  listPath: 'page',
  label: { zh: '用户管理', en: 'Users' },
  scope: 'tenant',
  dataScope: true,
  fields: {
    account: {
      kind: 'text',
      label: { zh: '登录账号', en: 'Account' },
      required: { zh: '请输入登录账号', en: 'Enter the account' },
      pattern: {
        regex: '^[A-Za-z0-9_.@-]+$',
        message: { zh: '账号只能包含字母、数字和 _ . @ -', en: 'Letters, digits and _ . @ - only' },
      },
      unique: { zh: '账号已存在', en: 'The account already exists' },
      search: 'like',
      sort: true,
    },
    password: {
      kind: 'secret',
      max: 128,
      createOnly: true,
      label: { zh: '密码', en: 'Password' },
      sample: 'Sample#2026xyz',
    },
    name: { kind: 'text', label: { zh: '昵称', en: 'Nickname' }, search: 'like' },
    realName: {
      kind: 'text',
      label: { zh: '用户姓名', en: 'Name' },
      required: { zh: '请输入用户姓名', en: 'Enter the name' },
      search: 'like',
      sort: true,
    },
    email: {
      kind: 'text',
      label: { zh: '邮箱', en: 'Email' },
      pattern: { regex: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', message: { zh: '邮箱格式不正确', en: 'Bad email address' } },
      sample: 'someone@example.com',
      ui: { column: false },
    },
    phone: {
      kind: 'text',
      label: { zh: '手机号码', en: 'Phone' },
      pattern: { regex: '^1[3-9]\\d{9}$', message: { zh: '手机号码格式不正确', en: 'Bad phone number' } },
      search: 'like',
      sample: '13800000000',
    },
    sex: {
      kind: 'dict',
      dict: 'sex',
      keys: 'int',
      values: [1, 2, 3],
      invalid: { zh: '性别取值为 1 男、2 女、3 未知', en: 'Sex is 1 male, 2 female or 3 unknown' },
      label: { zh: '用户性别', en: 'Sex' },
    },
    birthday: { kind: 'date', label: { zh: '用户生日', en: 'Birthday' }, ui: { column: false } },
    deptId: {
      kind: 'ref',
      ref: 'dept',
      options: { url: '/api/blade-system/dept/tree', tree: true },
      label: { zh: '所属部门', en: 'Department' },
      ui: { display: 'deptName' },
    },
    postId: {
      kind: 'ref',
      ref: 'post',
      options: { url: '/api/blade-system/post/select', label: 'postName' },
      label: { zh: '所属岗位', en: 'Post' },
      search: 'eq',
      ui: { display: 'postName' },
    },
    regionCode: {
      kind: 'region',
      label: { zh: '所属区域', en: 'Region' },
      search: 'eq',
      sample: '110101',
      ui: { column: false },
    },
    roleIds,
    /** The older name of roleIds (a comma list), still accepted. */
    roleId: { ...roleIds, ui: { form: false, column: false } },
    status: { kind: 'int', readOnly: true, search: 'eq', label: { zh: '状态', en: 'Status' } },
    userType: {
      kind: 'int',
      readOnly: true,
      search: 'eq',
      label: { zh: '用户平台', en: 'Platform' },
      ui: { column: false },
    },
    // Names of the linked rows: the columns of roleIds, deptId and postId show them.
    roleName: { kind: 'text', virtual: true, label: { zh: '所属角色', en: 'Roles' }, ui: { column: false } },
    deptName: { kind: 'text', virtual: true, label: { zh: '所属部门', en: 'Department' }, ui: { column: false } },
    postName: { kind: 'text', virtual: true, label: { zh: '所属岗位', en: 'Post' }, ui: { column: false } },
  },
  actions: {
    'update-platform': {
      label: { zh: '平台配置', en: 'Platform settings' },
      code: 'user_edit',
      idField: 'userId',
      input: {
        userType: { kind: 'int', min: 1, max: 99, required: true, label: { zh: '用户平台', en: 'Platform' } },
        userExt: { kind: 'textarea', max: 4000, label: { zh: '用户拓展', en: 'Extension' } },
      },
      done: { zh: '更新成功', en: 'Updated' },
    },
    'reset-password': {
      label: { zh: '重置密码', en: 'Reset password' },
      code: 'user_reset',
      target: 'many',
      idField: 'userIds',
      confirm: { zh: '确定将选择账号密码重置为随机密码?', en: 'Reset the selected accounts to random passwords?' },
      done: { zh: '重置成功', en: 'Passwords reset' },
    },
    grant: {
      label: { zh: '角色配置', en: 'Assign roles' },
      code: 'user_role',
      target: 'many',
      idField: 'userIds',
      input: {
        roleIds: { ...roleIds, column: undefined, required: { zh: '请选择角色', en: 'Choose at least one role' } },
      },
      done: { zh: '授权成功', en: 'Roles assigned' },
    },
    approve: {
      label: { zh: '审核', en: 'Approve' },
      target: 'many',
      from: [2],
      to: 1,
      refused: { zh: '只能审核待审核的用户', en: 'Only pending applications can be approved' },
      confirm: { zh: '确定通过选择账号的注册申请？', en: 'Approve the registrations of the selected accounts?' },
      done: { zh: '审核成功', en: 'Approved' },
    },
    unlock: {
      label: { zh: '解锁', en: 'Unlock' },
      target: 'many',
      idField: 'userIds',
      confirm: { zh: '确定解锁选择的账号？', en: 'Unlock the selected accounts?' },
      done: { zh: '解锁成功', en: 'Unlocked' },
    },
  },
});
