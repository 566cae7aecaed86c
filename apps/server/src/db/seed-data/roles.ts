/** Roles of docs/system-api.md "Seed" (the platform administrator and the product roles of docs/product.md "Roles and permissions"), a department tree and posts. */
export const roleSeed = [
  { roleName: '超级管理员', roleAlias: 'administrator', sort: 1 },
  { roleName: '供应商管理员', roleAlias: 'supplier_admin', sort: 2 },
  { roleName: '区域管理员', roleAlias: 'region_admin', sort: 3 },
  { roleName: '城市管理员', roleAlias: 'city_admin', sort: 4 },
  { roleName: '领导', roleAlias: 'leader_admin', sort: 5 },
  // The candidate role of the leave process's HR step (docs/workflow.md "The leave process").
  { roleName: '人事', roleAlias: 'hr', sort: 6 },
];
export const deptSeed: { deptName: string; fullName?: string; parent?: string; sort: number; deptCategory?: number }[] =
  [
    { deptName: 'Atrium', fullName: 'Atrium 城市运营中心', sort: 1, deptCategory: 1 },
    { deptName: '技术部', parent: 'Atrium', sort: 1, deptCategory: 2 },
    { deptName: '运营部', parent: 'Atrium', sort: 2, deptCategory: 2 },
  ];
export const postSeed = [
  { category: 1, postCode: 'ceo', postName: '首席执行官', sort: 1 },
  { category: 2, postCode: 'manager', postName: '经理', sort: 2 },
  { category: 3, postCode: 'staff', postName: '职员', sort: 3 },
];

/**
 * What the product roles hold (docs/product.md "Product roles"): screens by menu code (with all their buttons unless
 * `buttons` lists the ones kept), and one data scope per business resource. Data-scope types: 1 all, 6 own region and
 * below, 7 own client.
 */
export type ProductRole = {
  alias: 'city_admin' | 'region_admin' | 'supplier_admin' | 'leader_admin' | 'hr';
  /** Screen codes (with every button) or whole groups (`group:<code>`). */
  screens: string[];
  /** Screens whose buttons are limited to these suffixes (e.g. view only). */
  buttons?: Record<string, string[]>;
  /** The data-scope type this role gets on each business resource (none: it reads no business resource). */
  scopeType?: 1 | 6 | 7;
};
/** Names of the data-scope records the product roles get (stored data, like the role names). */
export const productScopeNames = { 1: '全部', 6: '本区域及以下', 7: '本客户' } as const;
/** The business resources whose rows follow a product role's data scope (those bound with one at start). */
export const BUSINESS_RESOURCES = ['clientinfo', 'approval', 'subdomain_list', 'cameradevice', 'nvrchannelinfo'];
export const productRoles: ProductRole[] = [
  {
    alias: 'city_admin',
    screens: [
      'group:customer',
      'group:subdomain',
      'group:device',
      'group:video',
      'group:blacklist',
      'group:report',
      'user',
      'dept',
      'post',
      'role',
      'region',
      'sysconfigregion',
    ],
    scopeType: 1,
  },
  {
    alias: 'region_admin',
    // Reports run inside the caller's data scope (docs/reports.md): a region admin's cover its region.
    screens: ['group:customer', 'group:subdomain', 'group:device', 'group:video', 'group:report'],
    // The device dictionary and config templates are the tenant's, shared by every region: read only.
    buttons: { dictioncary: ['view'], configtemplate: ['view'], configtemplateitem: ['view'], cameranetwork: ['view'] },
    scopeType: 6,
  },
  {
    alias: 'supplier_admin',
    screens: ['clientinfo', 'subdomain_list', 'cameradevice', 'nvrchannelinfo', 'video_monitor'],
    buttons: { clientinfo: ['view'], subdomain_list: ['add', 'view'] },
    scopeType: 7,
  },
  {
    alias: 'leader_admin',
    screens: ['group:video', 'clientinfo', 'approval', 'cameradevice', 'nvrchannelinfo'],
    buttons: { clientinfo: ['view'], approval: ['view'], cameradevice: ['view'], nvrchannelinfo: ['view'] },
    scopeType: 1,
  },
  // HR handles the leave process's HR step: the 我的事务 screens with their buttons, no business resource.
  { alias: 'hr', screens: ['group:work'] },
];
