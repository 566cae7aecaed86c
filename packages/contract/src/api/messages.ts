import type { Msg } from '../resource/define.ts';

/** Texts of the declared routes' input rules (the message catalogue's part for the API). */
export const apiTexts = {
  // The tenant's export, import and data source (docs/tenants.md).
  tenantIdRequired: { zh: '请给出 6 到 12 位数字的租户编号', en: 'Give a tenant id of 6 to 12 digits' },
  datasourceIdMalformed: {
    zh: '数据源编号必须是数字（留空表示迁回主库）',
    en: 'The data source id is a number (empty: back to the main database)',
  },
  logTimeTooLong: { zh: '错误日志的时间最多 64 个字符', en: 'The time of an error-log entry is at most 64 characters' },
  // The user's own account (docs/system-api.md "Users").
  phoneFormat: { zh: '手机号码格式不正确', en: 'The phone number is malformed' },
  emailFormat: { zh: '邮箱格式不正确', en: 'The email address is malformed' },
  oldPasswordRequired: { zh: '请输入原密码', en: 'Enter the old password' },
  newPasswordRequired: { zh: '请输入新密码', en: 'Enter the new password' },
  confirmRequired: { zh: '请确认新密码', en: 'Confirm the new password' },
  guestTenantRequired: { zh: '请先输入租户编号', en: 'Enter the tenant id first' },
  guestAccountRequired: { zh: '请先输入账号名称', en: 'Enter the account name first' },
  guestNameTooLong: { zh: '姓名最多 10 个字符', en: 'The name has at most 10 characters' },
  guestAccountChars: {
    zh: '账号只能包含字母、数字和 _ . @ -',
    en: 'The account may hold only letters, digits and _ . @ -',
  },
  guestPasswordRequired: { zh: '请先输入密码', en: 'Enter the password first' },
  // System management (docs/system-api.md "Top menus", "Regions", "Config by region").
  chooseTopMenu: { zh: '请选择顶部菜单', en: 'Select the top menus' },
  regionCode: { zh: '区划编号应为 2 到 12 位数字', en: 'A region code has 2 to 12 digits' },
  configRegionRequired: { zh: '请选择区划', en: 'Select a region' },
  configRegionCode: { zh: '区划编号应为 00 或 2–12 位数字', en: 'A region code is 00 or 2 to 12 digits' },
  configTypeRequired: { zh: '请选择配置类型', en: 'Select a config type' },
  configTypeFormat: { zh: '配置类型格式不正确', en: 'The config type has the wrong format' },
  // Live video (docs/devices.md "Live video").
  ptzCommand: {
    zh: '云台命令必须是 up、down、left、right、upleft、upright、downleft、downright、zoomin、zoomout 或 stop',
    en: 'The PTZ command must be up, down, left, right, upleft, upright, downleft, downright, zoomin, zoomout or stop',
  },
  ptzSpeed: { zh: '云台速度必须是 1 到 8 的整数', en: 'The PTZ speed must be a whole number from 1 to 8' },
  cameraId: { zh: '请提供有效的摄像机 ID', en: 'Give a valid camera id' },
  wallRegionCode: { zh: '区域编码只能是 2 到 12 位数字', en: 'A region code is 2 to 12 digits' },
  streamId: { zh: '请提供有效的视频流 ID', en: 'Give a valid stream id' },
  streamWait: { zh: 'wait 只能是 hls 或 live', en: 'wait is hls or live' },
  // Reports (docs/reports.md).
  reportPage: { zh: '页码应为 1 以上的整数', en: 'The page is a whole number from 1' },
  reportSize: { zh: '每页行数应为 1 到 500 的整数', en: 'The page size is a whole number from 1 to 500' },
  reportFormat: { zh: '导出格式只能是 csv 或 xlsx', en: 'The export format is csv or xlsx' },
  // Workflow's labels (docs/workflow.md).
  flow_modelKey: { zh: '模型标识', en: 'model key' },
  flow_name: { zh: '名称', en: 'name' },
  flow_category: { zh: '流程分类', en: 'process category' },
  flow_description: { zh: '描述', en: 'description' },
  flow_xml: { zh: '流程图', en: 'diagram' },
  flow_state: { zh: '状态', en: 'state' },
  flow_reason: { zh: '删除原因', en: 'reason' },
  flow_comment: { zh: '审批意见', en: 'comment' },
  flow_flag: { zh: '审批结果', en: 'decision' },
  flow_leaveType: { zh: '请假类型', en: 'leave type' },
  flow_startTime: { zh: '开始时间', en: 'start time' },
  flow_endTime: { zh: '结束时间', en: 'end time' },
  flow_taskUser: { zh: '审批人', en: 'approver' },
  flow_leaveReason: { zh: '请假理由', en: 'reason' },
  // The business calls (docs/clients.md, docs/subdomains.md).
  clientPhone: { zh: '手机号码格式不正确', en: 'Bad phone number' },
  codeType: { zh: '验证码类型应为 1 注册或 2 重置密码', en: 'The code type is 1 register or 2 reset password' },
  userAgentRequired: { zh: '缺少 userAgent', en: 'userAgent is missing' },
  codeDigits: { zh: '验证码应为 6 位数字', en: 'The code has 6 digits' },
  ticketBad: {
    zh: '手机验证已失效，请重新获取验证码',
    en: 'The phone check is no longer valid; ask for a new code',
  },
  clientPasswordRequired: { zh: '请输入密码', en: 'Enter the password' },
  chooseClients: { zh: '请选择客户', en: 'Choose the clients' },
  emailSubjectRequired: { zh: '请输入邮件主题', en: 'Enter the subject' },
  emailBodyRequired: { zh: '请输入邮件内容', en: 'Enter the message' },
  trackTypeBad: { zh: '请选择跟踪方式', en: 'Choose the kind of follow-up' },
  trackContentRequired: { zh: '请输入跟踪内容', en: 'Enter what happened' },
  approvalStatus: { zh: '审批结果应为 1 通过或 2 驳回', en: 'The decision is 1 approve or 2 reject' },
  // The device screens' calls (docs/devices.md "Device records").
  deviceType: { zh: '设备类型应为 3 位数字', en: 'A device type is 3 digits' },
  // Files and SMS (docs/outbox.md "SMS").
  smsPhones: {
    zh: '手机号应为 11 位数字（或 + 开头的国际号码）',
    en: 'A phone is 11 digits (or an international number starting with +)',
  },
  smsCode: { zh: '短信配置编号最多 64 个字符', en: 'An SMS configuration code is at most 64 characters' },
} satisfies Record<string, Msg>;

/** The PTZ commands of `GET /api/video/ptz` (ONVIF ContinuousMove directions, zoom, stop). */
export const PTZ_COMMANDS = [
  'up',
  'down',
  'left',
  'right',
  'upleft',
  'upright',
  'downleft',
  'downright',
  'zoomin',
  'zoomout',
  'stop',
] as const;
