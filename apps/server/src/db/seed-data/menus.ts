/** The whole product's menu tree (docs/product.md, docs/system-api.md), seeded on the first start. Codes are permission codes and i18n keys. */
export type MenuSeed = {
  code: string;
  name: string;
  alias?: string;
  path?: string;
  source?: string;
  sort: number;
  category: 1 | 2;
  action?: 0 | 1 | 2 | 3;
  isOpen?: 1 | 2;
  remark?: string;
  children?: MenuSeed[];
};

type Screen = [
  code: string,
  name: string,
  alias: string,
  icon: string,
  opts?: { path?: string; crud?: boolean; actions?: [string, string, string][] },
];
type Group = [code: string, name: string, alias: string, icon: string, screens: Screen[]];

const CRUD: [string, string, string][] = [
  ['add', '新增', 'Add'],
  ['edit', '修改', 'Edit'],
  ['delete', '删除', 'Delete'],
  ['view', '查看', 'View'],
];

const groups: Group[] = [
  ['desk', '工作台', 'Desk', 'DesktopOutlined', [['notice', '通知公告', 'Notices', 'NotificationOutlined']]],
  [
    'system',
    '系统管理',
    'System',
    'SettingOutlined',
    [
      [
        'user',
        '用户管理',
        'Users',
        'UserOutlined',
        {
          actions: [
            ['role', '角色配置', 'Assign roles'],
            ['reset', '重置密码', 'Reset password'],
            ['approve', '审核', 'Approve'],
            ['unlock', '解锁', 'Unlock'],
          ],
        },
      ],
      ['dept', '机构管理', 'Departments', 'ApartmentOutlined'],
      ['post', '岗位管理', 'Posts', 'IdcardOutlined'],
      ['role', '角色管理', 'Roles', 'TeamOutlined', { actions: [['grant', '权限设置', 'Grant']] }],
      ['menu', '菜单管理', 'Menus', 'MenuOutlined'],
      ['topmenu', '顶部菜单', 'Top menus', 'AppstoreOutlined', { actions: [['setting', '菜单配置', 'Menu settings']] }],
      ['dict', '系统字典', 'System dictionaries', 'BookOutlined', { path: '/dict-horizontal' }],
      ['dictbiz', '业务字典', 'Business dictionaries', 'ProfileOutlined', { path: '/dict-vertical' }],
      ['param', '参数管理', 'Parameters', 'ToolOutlined'],
      ['tenant', '租户管理', 'Tenants', 'ClusterOutlined', { actions: [['setting', '授权配置', 'Settings']] }],
      ['client', '应用管理', 'OAuth clients', 'KeyOutlined'],
      ['datascope', '数据权限', 'Data scopes', 'DatabaseOutlined'],
      ['apiscope', '接口权限', 'API scopes', 'ApiOutlined'],
      [
        'region',
        '行政区划',
        'Regions',
        'EnvironmentOutlined',
        {
          actions: [
            ['import', '导入', 'Import'],
            ['export', '导出', 'Export'],
          ],
        },
      ],
      ['sysconfigregion', '区域配置', 'Config by region', 'ControlOutlined'],
      // Logs (docs/server.md "Log viewers"): read-only screens, the menu code is the permission.
      ['auditlog', '审计日志', 'Audit log', 'FileSearchOutlined', { crud: false }],
      ['errorlog', '错误日志', 'Error log', 'BugOutlined', { crud: false }],
      // The databases tenants may be moved to (docs/tenants.md "Data sources"): the platform administrator's alone.
      [
        'datasource',
        '数据源管理',
        'Data sources',
        'DatabaseOutlined',
        { actions: [['test', '测试连接', 'Test connection']] },
      ],
    ],
  ],
  [
    'resource',
    '资源管理',
    'Resources',
    'CloudOutlined',
    [
      ['oss', '对象存储', 'Object storage', 'CloudOutlined', { actions: [['enable', '启用', 'Enable']] }],
      [
        'sms',
        '短信配置',
        'SMS',
        'MessageOutlined',
        {
          actions: [
            ['enable', '启用', 'Enable'],
            ['send', '发送短信', 'Send SMS'],
          ],
        },
      ],
      ['attach', '附件管理', 'Attachments', 'PaperClipOutlined'],
      [
        'smtp',
        '邮件配置',
        'Email (SMTP)',
        'MailOutlined',
        {
          actions: [
            ['enable', '启用', 'Enable'],
            ['test', '发送测试邮件', 'Send a test email'],
          ],
        },
      ],
      ['outbox', '发件箱', 'Outbox', 'InboxOutlined', { crud: false, actions: [['view', '查看', 'View']] }],
    ],
  ],
  [
    'flow',
    '流程管理',
    'Workflow',
    'BranchesOutlined',
    [
      ['model', '模型管理', 'Models', 'DeploymentUnitOutlined', { actions: [['deploy', '部署', 'Deploy']] }],
      [
        'deploy',
        '流程部署',
        'Deployments',
        'ScheduleOutlined',
        {
          actions: [
            ['state', '变更状态', 'Change state'],
            ['upload', '上传部署', 'Upload'],
          ],
        },
      ],
      [
        'follow',
        '流程跟踪',
        'Tracking',
        'AuditOutlined',
        { crud: false, actions: [['delete', '删除流程实例', 'Delete instance']] },
      ],
    ],
  ],
  [
    'work',
    '我的事务',
    'My work',
    'SolutionOutlined',
    [
      ['work_start', '发起事务', 'Start', 'FileTextOutlined', { crud: false }],
      ['work_claim', '待签事务', 'To claim', 'FileOutlined', { crud: false, actions: [['sign', '签收', 'Claim']] }],
      [
        'work_todo',
        '待办事务',
        'To do',
        'UnorderedListOutlined',
        { crud: false, actions: [['handle', '处理', 'Handle']] },
      ],
      ['work_send', '已发事务', 'Sent', 'FileTextOutlined', { crud: false }],
      ['work_done', '办结事务', 'Done', 'FileTextOutlined', { crud: false }],
    ],
  ],
  ['report', '报表管理', 'Reports', 'BarChartOutlined', [['report_list', '报表列表', 'Report list', 'TableOutlined']]],
  [
    'customer',
    '客户管理',
    'Clients',
    'ContactsOutlined',
    [
      [
        'clientinfo',
        '客户信息',
        'Client info',
        'ContactsOutlined',
        {
          actions: [
            ['approve', '审核', 'Approve'],
            ['email', '发送邮件', 'Send email'],
          ],
        },
      ],
      ['approval', '客户审批', 'Approvals', 'AuditOutlined', { actions: [['approve', '审批', 'Approve']] }],
      ['clienttrack', '客户跟踪', 'Client tracking', 'LineChartOutlined'],
    ],
  ],
  [
    'device',
    '设备管理',
    'Devices',
    'HddOutlined',
    [
      ['configtemplate', '配置模板', 'Config templates', 'FileTextOutlined'],
      ['configtemplateitem', '模板配置项', 'Template items', 'UnorderedListOutlined'],
      ['nvrchannelinfo', 'NVR通道信息', 'NVR channels', 'ClusterOutlined'],
      ['dictioncary', '设备字典', 'Device dictionary', 'BookOutlined'],
      // The private networks where the tenant's cameras live (docs/devices.md "Camera addresses").
      ['cameranetwork', '摄像机网络', 'Camera networks', 'ApartmentOutlined'],
      // The the product's {product}Device screen; Atrium's product is the camera.
      ['cameradevice', '摄像机设备', 'Cameras', 'CameraOutlined'],
    ],
  ],
  [
    'video',
    '视频监控',
    'Video',
    'VideoCameraOutlined',
    [
      ['video_monitor', '实时监控', 'Live monitoring', 'VideoCameraOutlined', { crud: false }],
      ['device_online', '设备在线统计', 'Online statistics', 'DashboardOutlined', { crud: false }],
      ['device_ranking', '接入排名', 'Access ranking', 'BarChartOutlined', { crud: false }],
    ],
  ],
  [
    'subdomain',
    '子域名管理',
    'Sub-domains',
    'GlobalOutlined',
    [
      [
        'subdomain_list',
        '子域名',
        'Sub-domains',
        'LinkOutlined',
        {
          actions: [
            ['start', '启用', 'Start'],
            ['stop', '停用', 'Stop'],
          ],
        },
      ],
    ],
  ],
  [
    'blacklist',
    '黑名单',
    'Blacklist',
    'StopOutlined',
    [['blackinfo', '黑名单信息', 'Blacklist entries', 'StopOutlined']],
  ],
];

function screen(groupCode: string, [code, name, alias, icon, opts = {}]: Screen, sort: number): MenuSeed {
  const buttons = [...(opts.crud === false ? [] : CRUD), ...(opts.actions ?? [])];
  return {
    code,
    name,
    alias,
    source: icon,
    sort,
    category: 1,
    path: opts.path ?? `/${groupCode}/${code.replace(/^work_/, '')}`,
    children: buttons.map(([b, bName, bAlias], i) => ({
      code: `${code}_${b}`,
      name: bName,
      alias: bAlias,
      sort: i + 1,
      category: 2,
      action: 1,
    })),
  };
}

export const menuSeed: MenuSeed[] = groups.map(([code, name, alias, icon, screens], i) => ({
  code,
  name,
  alias,
  source: icon,
  path: `/${code}`,
  sort: i + 1,
  category: 1,
  children: screens.map((s, j) => screen(code, s, j + 1)),
}));

/** Top menus and the root menus each one shows. */
export const topMenuSeed: { code: string; name: string; source?: string; sort: number; menuCodes: string[] }[] = [
  { code: 'desk', name: '工作台', source: 'DesktopOutlined', sort: 1, menuCodes: ['desk', 'work'] },
  { code: 'system', name: '系统', source: 'SettingOutlined', sort: 2, menuCodes: ['system', 'resource'] },
  {
    code: 'business',
    name: '业务',
    source: 'ShopOutlined',
    sort: 3,
    menuCodes: ['customer', 'device', 'video', 'subdomain', 'blacklist', 'report'],
  },
  { code: 'flow', name: '流程', source: 'BranchesOutlined', sort: 4, menuCodes: ['flow', 'work'] },
];
