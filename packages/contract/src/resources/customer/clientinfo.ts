import { defineResource } from '../../resource/define.ts';

/** 客户状态 (docs/clients.md): 1 pending review → 2 approved ⇄ 4 disabled; 1 → 3 rejected → (resubmitted) 1. */
export const CLIENT_STATUS = { pending: 1, approved: 2, rejected: 3, disabled: 4 } as const;

const PHONE = { regex: '^1[3-9]\\d{9}$', message: { zh: '手机号码格式不正确', en: 'Bad phone number' } };

/**
 * 客户信息: organisations that bring their cameras (docs/clients.md). Registered on the public page or entered by
 * staff, reviewed through an approval; approval creates the client's account. Rows follow the data scope (region
 * admins: their region and below; client accounts: their own client).
 */
export const clientinfo = defineResource({
  code: 'clientinfo',
  group: 'customer',
  base: '/api/blade-business/clientInfo',
  listPath: 'page',
  label: { zh: '客户信息', en: 'Clients' },
  scope: 'tenant',
  dataScope: true,
  dialogWidth: 880,
  fields: {
    clientName: {
      kind: 'text',
      max: 100,
      label: { zh: '客户名称', en: 'Client name' },
      required: { zh: '请输入客户名称', en: 'Enter the client name' },
      search: 'like',
      sort: true,
    },
    clientType: {
      kind: 'dict',
      dict: 'client_type',
      keys: 'int',
      values: [1, 2, 3, 4, 5, 6],
      options: [
        { value: 1, label: { zh: '商铺', en: 'Shop' } },
        { value: 2, label: { zh: '学校', en: 'School' } },
        { value: 3, label: { zh: '小区', en: 'Housing estate' } },
        { value: 4, label: { zh: '企业', en: 'Enterprise' } },
        { value: 5, label: { zh: '安装商', en: 'Installer' } },
        { value: 6, label: { zh: '运营商', en: 'Operator' } },
      ],
      label: { zh: '客户类型', en: 'Client type' },
      required: { zh: '请选择客户类型', en: 'Select the client type' },
      search: 'eq',
    },
    creditCode: {
      kind: 'text',
      max: 18,
      label: { zh: '统一社会信用代码', en: 'Credit code' },
      required: { zh: '请输入统一社会信用代码', en: 'Enter the unified social credit code' },
      sample: '91110108MA01ABCD0B',
      ui: { column: false },
    },
    contactName: {
      kind: 'text',
      max: 30,
      label: { zh: '联系人', en: 'Contact' },
      required: { zh: '请输入联系人', en: 'Enter the contact name' },
    },
    contactIdCard: {
      kind: 'text',
      max: 18,
      label: { zh: '联系人身份证号', en: 'Contact ID card' },
      sample: '11010519491231002X',
      ui: { column: false },
    },
    operatorTel: {
      kind: 'text',
      max: 11,
      label: { zh: '手机号码', en: 'Mobile' },
      required: { zh: '请输入手机号码', en: 'Enter the mobile number' },
      pattern: PHONE,
      unique: { zh: '该手机号已登记为客户', en: 'This mobile number already belongs to a client' },
      search: 'eq',
      sample: '13912345678',
    },
    email: {
      kind: 'text',
      max: 100,
      label: { zh: '邮箱', en: 'Email' },
      pattern: {
        regex: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
        message: { zh: '邮箱格式不正确', en: 'The email address is malformed' },
      },
      sample: 'client@example.com',
    },
    regionCode: {
      kind: 'region',
      label: { zh: '所属区域', en: 'Region' },
      required: { zh: '请选择所属区域', en: 'Select the region' },
      sample: '110101',
    },
    address: { kind: 'text', max: 200, label: { zh: '详细地址', en: 'Address' }, ui: { column: false } },
    lng: { kind: 'decimal', min: -180, max: 180, label: { zh: '经度', en: 'Longitude' }, ui: { column: false } },
    lat: { kind: 'decimal', min: -90, max: 90, label: { zh: '纬度', en: 'Latitude' }, ui: { column: false } },
    licenceAttachId: {
      kind: 'upload',
      label: { zh: '营业执照', en: 'Business licence' },
      ui: { column: false },
    },
    appClientAccount: {
      kind: 'text',
      max: 45,
      label: { zh: '客户账号', en: 'Client account' },
      pattern: {
        regex: '^[A-Za-z0-9_.@-]{2,45}$',
        message: {
          zh: '账号只能包含字母、数字和 _ . @ -',
          en: 'The account may hold only letters, digits and _ . @ -',
        },
      },
      unique: { zh: '该账号已被其他客户使用', en: 'Another client already uses this account' },
      search: 'eq',
      ui: { placeholder: { zh: '留空则使用手机号', en: 'Empty: the mobile number' } },
    },
    source: {
      kind: 'dict',
      dict: 'client_source',
      keys: 'int',
      values: [1, 2],
      options: [
        { value: 1, label: { zh: '自助注册', en: 'Self-registered' } },
        { value: 2, label: { zh: '后台录入', en: 'Entered by staff' } },
      ],
      label: { zh: '来源', en: 'Source' },
      readOnly: true,
      search: 'eq',
    },
    status: {
      kind: 'dict',
      dict: 'client_status',
      keys: 'int',
      values: [1, 2, 3, 4],
      options: [
        { value: 1, label: { zh: '待审核', en: 'Pending review' } },
        { value: 2, label: { zh: '已通过', en: 'Approved' } },
        { value: 3, label: { zh: '已驳回', en: 'Rejected' } },
        { value: 4, label: { zh: '已停用', en: 'Disabled' } },
      ],
      label: { zh: '状态', en: 'Status' },
      readOnly: true,
      search: 'in',
      sort: true,
    },
    remark: { kind: 'textarea', max: 500, label: { zh: '备注', en: 'Remark' }, ui: { column: false } },
  },
  actions: {
    disable: {
      label: { zh: '停用', en: 'Disable' },
      code: 'clientinfo_edit',
      from: [2],
      to: 4,
      confirm: { zh: '停用后该客户的账号将无法登录，确定停用?', en: "The client's account will not sign in. Disable?" },
      done: { zh: '已停用', en: 'Disabled' },
      refused: { zh: '只有已通过的客户可以停用', en: 'Only approved clients can be disabled' },
      danger: true,
    },
    enable: {
      label: { zh: '启用', en: 'Enable' },
      code: 'clientinfo_edit',
      from: [4],
      to: 2,
      done: { zh: '已启用', en: 'Enabled' },
      refused: { zh: '只有已停用的客户可以启用', en: 'Only disabled clients can be enabled' },
    },
  },
});
