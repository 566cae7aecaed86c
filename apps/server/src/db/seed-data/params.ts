/** Platform parameters. There is deliberately no default-password parameter: reset passwords are random. */
export const paramSeed: { paramName: string; paramKey: string; paramValue: string; remark?: string }[] = [
  { paramName: '密码最小长度', paramKey: 'password.minLength', paramValue: '8', remark: '设置密码时的最小长度' },
  {
    paramName: '登录失败上限',
    paramKey: 'login.maxFailures',
    paramValue: '5',
    remark: '10 分钟内连续失败次数，达到后锁定账号',
  },
  { paramName: '账号锁定时长（分钟）', paramKey: 'login.lockMinutes', paramValue: '10' },
  { paramName: '验证码有效期（秒）', paramKey: 'captcha.ttlSeconds', paramValue: '300' },
  { paramName: '上传文件大小上限（KB）', paramKey: 'upload.maxSizeKb', paramValue: '10240' },
  { paramName: '头像大小上限（KB）', paramKey: 'avatar.maxSizeKb', paramValue: '500' },
  { paramName: '租户默认账号额度', paramKey: 'tenant.default.accountNumber', paramValue: '-1', remark: '-1 表示不限' },
  { paramName: '租户默认有效期（天）', paramKey: 'tenant.default.expireDays', paramValue: '365' },
  {
    paramName: '子域名基础域名',
    paramKey: 'subdomain.base',
    paramValue: 'atrium.localhost',
    remark: '子域名为 <名称>.<基础域名>；租户设置了自己的域名时使用租户域名',
  },
  {
    paramName: '子域名绑定设备上限',
    paramKey: 'subdomain.bindLimit',
    paramValue: '10',
    remark: '新申请的子域名的绑定上限',
  },
  {
    paramName: '可嵌入页面的来源',
    paramKey: 'frame.allowedOrigins',
    paramValue: 'self',
    remark:
      '控制台 /myiframe 可嵌入的页面来源（如 https://docs.example.com），以空格、逗号或换行分隔；self 为控制台自身，总是允许',
  },
];
