/** Texts of the sub-domain module (the message catalogue's per-module part). */
export const subdomainTexts = {
  legal: { zh: '该子域名可以使用', en: 'This sub-domain is available' },
  empty: { zh: '请输入子域名', en: 'Enter the sub-domain' },
  length: { zh: '子域名长度应为 3 到 32 个字符', en: 'A sub-domain is 3 to 32 characters long' },
  chars: {
    zh: '子域名只能包含小写字母、数字和连字符 -',
    en: 'A sub-domain may hold only lower-case letters, digits and hyphens',
  },
  firstLetter: { zh: '子域名必须以字母开头', en: 'A sub-domain must start with a letter' },
  edgeHyphen: { zh: '子域名不能以连字符结尾', en: 'A sub-domain cannot end with a hyphen' },
  punycode: {
    zh: '子域名的第 3、4 个字符不能同时为连字符（如 xn--）',
    en: 'A sub-domain cannot have hyphens as its 3rd and 4th characters (as in xn--)',
  },
  reserved: { zh: '该子域名为系统保留，请换一个', en: 'This sub-domain is reserved; choose another' },
  blocked: { zh: '子域名包含不允许使用的词语', en: 'The sub-domain contains a word that is not allowed' },
  taken: { zh: '该子域名已被占用', en: 'This sub-domain is already taken' },
  noBase: {
    zh: '未配置子域名的基础域名（参数 subdomain.base）',
    en: 'No base domain is configured for sub-domains (parameter subdomain.base)',
  },
  noClient: { zh: '未找到该客户账号对应的已审核客户', en: 'No approved client has this account' },
  accountRequired: { zh: '请输入客户账号', en: 'Enter the client account' },
  applied: { zh: '申请已提交，请等待审批', en: 'Application submitted; it awaits approval' },
  noApplication: { zh: '未找到该子域名的申请', en: 'No application for this sub-domain was found' },
  runningNoRemove: {
    zh: '运行中的子域名不能删除，请先停用',
    en: 'A running sub-domain cannot be removed; stop it first',
  },
  bindFull: {
    zh: '该子域名已达到绑定设备上限（{limit} 台）',
    en: 'This sub-domain has reached its limit of {limit} bound devices',
  },
  bindNotRunning: { zh: '只能绑定到运行中的子域名', en: 'Devices bind only to a running sub-domain' },
  /** Completes the client module's "该客户{what}，不能删除" / "This client {what} and cannot be removed". */
  clientHasRunning: { zh: '有运行中的子域名', en: 'has a running sub-domain' },
  askUnknown: { zh: '该域名未启用', en: 'This domain is not in service' },
  askOk: { zh: '该域名已启用', en: 'This domain is in service' },
  tooMany: {
    zh: '请求过于频繁，请 {seconds} 秒后重试',
    en: 'Too many requests; try again in {seconds} s',
  },
  smsApproved: {
    zh: '【{tenant}】您申请的子域名 {domain} 已审核通过，可在后台启用。',
    en: '[{tenant}] Your sub-domain {domain} was approved; start it in the console.',
  },
  smsRejected: {
    zh: '【{tenant}】您申请的子域名 {domain} 未通过审核：{opinion}',
    en: '[{tenant}] Your sub-domain {domain} was not approved: {opinion}',
  },
  approvalTitle: { zh: '子域名申请：{domain}', en: 'Sub-domain application: {domain}' },
};

/** Texts added with the lifecycle. */
export const subdomainLifecycleTexts = {
  clientNotApproved: {
    zh: '该客户当前未处于已审核状态，不能启用子域名',
    en: 'The client is not approved at present; the sub-domain cannot start',
  },
  notYours: { zh: '只能为本客户申请子域名', en: 'A client account applies for its own client only' },
};
