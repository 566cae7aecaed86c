/** Dictionaries the screens use (docs/system-api.md "Seed"). */
export type DictSeed = {
  code: string;
  dictValue: string;
  remark?: string;
  children: { dictKey: string; dictValue: string; sort: number; remark?: string }[];
};

const d = (code: string, dictValue: string, entries: string): DictSeed => ({
  code,
  dictValue,
  children: entries.split(',').map((e, i) => {
    const [dictKey, value] = e.split(':');
    return { dictKey, dictValue: value, sort: i + 1 };
  }),
});

export const dictSeed: DictSeed[] = [
  d('sex', '性别', '1:男,2:女,3:未知'),
  d('yes_no', '是否', '0:否,1:是'),
  d('menu_category', '菜单类型', '1:菜单,2:按钮'),
  d('button_func', '按钮功能', '1:工具栏,2:操作栏,3:工具操作栏'),
  d('data_scope_type', '数据权限类型', '1:全部,2:本人,3:本部门,4:本部门及以下,5:自定义'),
  d('api_scope_type', '接口权限类型', '1:系统接口,2:业务接口'),
  d('post_category', '岗位类型', '1:高层,2:中层,3:基层,4:其他'),
  d('org_category', '机构类型', '1:公司,2:部门,3:小组'),
  d('notice', '通知类型', '1:发布通知,2:批转通知,3:转发通知,4:指示通知,5:任免通知,6:事务通知'),
  d('flow', '流程类型', '1:请假流程,2:报销流程'),
  d('oss', '对象存储类型', '1:minio,2:七牛云,3:阿里云,4:腾讯云'),
  d('sms', '短信服务类型', '1:云片,2:七牛云,3:阿里云,4:腾讯云'),
  d('region_level', '行政区划等级', '1:省份,2:地市,3:区县,4:乡镇,5:村委'),
  d('user_status', '用户状态', '1:正常,2:待审核,3:停用'),
  d('tenant_status', '租户状态', '1:正常,2:停用'),
];

export const dictBizSeed: DictSeed[] = [
  d('device_status', '设备状态', '1:在线,2:离线,3:故障'),
  d('device_type', '设备类型', '1:摄像机,2:NVR,3:门禁'),
  d('client_status', '客户状态', '1:待审核,2:已通过,3:已驳回'),
  d('approval_status', '审批状态', '0:待审批,1:通过,2:驳回'),
  d('subdomain_status', '子域名状态', '0:申请中,1:已启用,2:已停用'),
];
