/** Dictionaries the screens use (docs/system-api.md "Seed"). */
export type DictSeed = {
  code: string;
  dictValue: string;
  remark?: string;
  dictValueEn?: string;
  children: { dictKey: string; dictValue: string; dictValueEn?: string; sort: number; remark?: string }[];
};

/** `entries`: key:中文:English, comma separated. */
const d = (code: string, dictValue: string, dictValueEn: string, entries: string): DictSeed => ({
  code,
  dictValue,
  dictValueEn,
  children: entries.split(',').map((e, i) => {
    const [dictKey, value, en] = e.split(':');
    return { dictKey, dictValue: value, dictValueEn: en, sort: i + 1 };
  }),
});

export const dictSeed: DictSeed[] = [
  d('sex', '性别', 'Sex', '1:男:Male,2:女:Female,3:未知:Unknown'),
  d('yes_no', '是否', 'Yes or no', '0:否:No,1:是:Yes'),
  d('menu_category', '菜单类型', 'Menu type', '1:菜单:Menu,2:按钮:Button'),
  d('button_func', '按钮功能', 'Button action', '1:工具栏:Toolbar,2:操作栏:Row,3:工具操作栏:Toolbar and row'),
  d(
    'data_scope_type',
    '数据权限类型',
    'Data scope type',
    '1:全部:All,2:本人:Own records,3:本部门:Own department,4:本部门及以下:Own department and below,5:自定义:Custom,6:本区域及以下:Own region and below,7:本客户:Own client',
  ),
  d('api_scope_type', '接口权限类型', 'API scope type', '1:系统接口:System API,2:业务接口:Business API'),
  d('post_category', '岗位类型', 'Post category', '1:高层:Senior,2:中层:Middle,3:基层:Junior,4:其他:Other'),
  d('org_category', '机构类型', 'Organisation type', '1:公司:Company,2:部门:Department,3:小组:Team'),
  d(
    'notice',
    '通知类型',
    'Notice type',
    '1:发布通知:Announcement,2:批转通知:Forwarded for approval,3:转发通知:Forwarded,4:指示通知:Instruction,5:任免通知:Appointment,6:事务通知:Administrative',
  ),
  d(
    'oss',
    '对象存储类型',
    'Object storage type',
    '1:minio:MinIO,2:七牛云:Qiniu,3:阿里云:Aliyun,4:腾讯云:Tencent Cloud',
  ),
  d(
    'sms',
    '短信服务类型',
    'SMS service type',
    '1:仅发件箱:Outbox only,2:阿里云:Aliyun,3:腾讯云:Tencent Cloud,4:HTTP 回调:HTTP webhook',
  ),
  d(
    'region_level',
    '行政区划等级',
    'Region level',
    '1:省份:Province,2:地市:City,3:区县:District,4:乡镇:Town,5:村委:Village',
  ),
  d('user_status', '用户状态', 'User status', '1:正常:Active,2:待审核:Pending,3:停用:Disabled'),
  d('tenant_status', '租户状态', 'Tenant status', '1:正常:Active,2:停用:Disabled'),
  d(
    'sys_config_type',
    '区域配置类型',
    'Config type',
    'map:地图:Map,video:视频:Video,sms:短信:SMS,email:邮件:Email,device:设备接入:Device access,approval:审批:Approval',
  ),
];

export const dictBizSeed: DictSeed[] = [
  d('device_status', '设备状态', 'Device status', '1:在线:Online,2:离线:Offline,3:故障:Faulty'),
  d('device_type', '设备类型', 'Device type', '1:摄像机:Camera,2:NVR:NVR,3:门禁:Access control'),
  d('client_status', '客户状态', 'Client status', '1:待审核:Pending,2:已通过:Approved,3:已驳回:Rejected'),
  d('approval_status', '审批状态', 'Approval status', '0:待审批:Pending,1:通过:Approved,2:驳回:Rejected'),
  d('subdomain_status', '子域名状态', 'Sub-domain status', '0:申请中:Applied,1:已启用:Running,2:已停用:Stopped'),
];

/**
 * The leave types (docs/workflow.md "The leave process"): a business dictionary (`dict_biz`), one per tenant — each
 * tenant keeps its own list (adds 调休, removes 产假 …) — seeded in every tenant by modules/leave/seed.ts.
 */
export const leaveTypeSeed: DictSeed = d(
  'leave_type',
  '请假类型',
  'Leave type',
  '1:事假:Personal leave,2:病假:Sick leave,3:年假:Annual leave,4:婚假:Marriage leave,5:产假:Maternity leave,6:陪产假:Paternity leave,7:丧假:Bereavement leave,8:调休:Time off in lieu',
);

/**
 * The process categories (docs/workflow.md "Flow routes"): the business dictionary `flow`, one per tenant, whose remark
 * is the route of a category's screens — 请假流程 → `/work/process/leave`. A category without a remark has no screens.
 * Seeded in every tenant with the leave process (modules/flow/seed.ts).
 */
export const flowCategorySeed: DictSeed = {
  code: 'flow',
  dictValue: '流程分类',
  dictValueEn: 'Process category',
  children: [
    { dictKey: '1', dictValue: '请假流程', dictValueEn: 'Leave', sort: 1, remark: '/work/process/leave' },
    { dictKey: '2', dictValue: '报销流程', dictValueEn: 'Expenses', sort: 2 },
  ],
};
