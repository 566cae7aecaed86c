// TEMPORARY placeholder until the full menu seed lands.
export type MenuSeed = { code: string; name: string; alias?: string; path?: string; source?: string; sort: number; category: 1 | 2; action?: 0 | 1 | 2 | 3; isOpen?: 1 | 2; remark?: string; children?: MenuSeed[] };
export const menuSeed: MenuSeed[] = [
  { code: 'desk', name: '工作台', alias: 'Desk', path: '/desk', source: 'DesktopOutlined', sort: 1, category: 1, children: [
    { code: 'notice', name: '通知公告', alias: 'Notices', path: '/desk/notice', source: 'NotificationOutlined', sort: 1, category: 1, children: [
      { code: 'notice_add', name: '新增', alias: 'Add', sort: 1, category: 2 },
    ] },
  ] },
  { code: 'system', name: '系统管理', alias: 'System', path: '/system', source: 'SettingOutlined', sort: 2, category: 1, children: [
    { code: 'user', name: '用户管理', alias: 'Users', path: '/system/user', source: 'UserOutlined', sort: 1, category: 1, children: [
      { code: 'user_add', name: '新增', alias: 'Add', sort: 1, category: 2 },
    ] },
    { code: 'post', name: '岗位管理', alias: 'Posts', path: '/system/post', source: 'IdcardOutlined', sort: 3, category: 1, children: [
      { code: 'post_add', name: '新增', alias: 'Add', sort: 1, category: 2 },
      { code: 'post_edit', name: '修改', alias: 'Edit', sort: 2, category: 2 },
      { code: 'post_delete', name: '删除', alias: 'Delete', sort: 3, category: 2 },
      { code: 'post_view', name: '查看', alias: 'View', sort: 4, category: 2 },
    ] },
  ] },
  { code: 'monitor', name: '系统监控', alias: 'Monitor', path: '/monitor', source: 'DashboardOutlined', sort: 3, category: 1 },
  { code: 'device', name: '设备管理', alias: 'Devices', path: '/device', source: 'VideoCameraOutlined', sort: 4, category: 1 },
];
export const topMenuSeed: { code: string; name: string; source?: string; sort: number; menuCodes: string[] }[] = [
  { code: 'work', name: '工作台', source: 'DesktopOutlined', sort: 1, menuCodes: ['desk'] },
  { code: 'system', name: '系统', source: 'SettingOutlined', sort: 2, menuCodes: ['system', 'monitor'] },
];
