const zh = {
  title: 'Atrium 城市设备与客户管理平台',
  common: { ok: '确定', cancel: '取消', save: '保存', submit: '提交', reset: '重置', search: '搜索', loading: '加载中…', back: '返回', refresh: '刷新', yes: '是', no: '否' },
  http: { timeout: '请求超时，请稍后重试', network: '网络异常，无法连接服务器', unknown: '未知错误' },
  login: {
    title: '登录', welcome: '欢迎使用 Atrium', subtitle: '城市设备、视频与客户管理控制台', tenant: '请输入租户编号', username: '请输入用户名',
    password: '请输入密码', captcha: '请输入验证码', submit: '登 录', refreshCaptcha: '看不清？点击刷新', register: '第三方账号注册',
    tenantRequired: '请输入租户编号', usernameRequired: '请输入用户名', passwordRequired: '请输入密码', captchaRequired: '请输入验证码',
    success: '登录成功', captchaFailed: '验证码加载失败，点击重试',
  },
  register: {
    title: '第三方账号注册', tenantId: '租户编号', name: '用户姓名', account: '账号名称', password: '密码', password2: '确认密码',
    needTenant: '请先输入租户编号', needAccount: '请先输入账号名称', needPassword: '请先输入密码', mismatch: '两次密码输入不一致',
    failed: '提交失败', doneTitle: '注册提示', done: '注册申请已提交,请耐心等待管理员通过!',
  },
  tags: { home: '首页', clearCache: '清除缓存', closeOthers: '关闭其他', closeAll: '关闭全部', refresh: '刷新页面', cleared: '清除完毕' },
  page: {
    home: '首页', dashboard: '控制台', test: '测试页', info: '个人信息', lock: '锁屏', iframe: '外部页面',
    notFound: '抱歉，您访问的页面不存在', forbidden: '抱歉，您无权访问此页面', serverError: '抱歉，服务器出错了', goHome: '返回首页',
    notAvailable: '此页面尚未在本版本中提供', notAvailableHint: '菜单“{{name}}”已配置，但对应的页面还在建设中。',
  },
  header: {
    dashboard: '控制台', info: '个人信息', logout: '退出系统', logoutConfirm: '确定退出系统吗?', returnApp: '返回应用', fullscreen: '全屏',
    exitFullscreen: '退出全屏', theme: '主题', colour: '换色', lock: '锁屏', errorLog: '错误日志', language: '语言', notice: '通知',
    search: '搜索菜单', searchPlaceholder: '输入菜单名称（前缀匹配）', noMatch: '没有匹配的菜单', home: '首页', collapse: '折叠菜单',
  },
  lock: {
    setTitle: '设置锁屏密码', password: '锁屏密码', required: '锁屏密码不能为空', unlockPlaceholder: '请输入锁屏密码', wrong: '锁屏密码错误',
    unlock: '解锁', locked: '屏幕已锁定', logout: '退出登录',
  },
  logs: {
    title: '错误日志', type: '类型', url: '地址', message: '内容', stack: '错误堆栈', time: '时间', upload: '上传服务器',
    clear: '清空本地日志', sent: '发送成功!', cleared: '清空成功!', empty: '暂无错误日志',
  },
  notice: {
    mail: '邮件', message: '消息', notice: '通知', page: '第 {{page}} 页', loaded: '已加载第 {{page}} 页', more: '加载更多',
  },
  themes: { default: '默认主题', white: '白色主题', dark: '黑色主题', star: '炫彩主题', smart: '智能主题', iview: 'iView 主题', vip: 'VIP 主题', cool: '酷炫主题', d2: 'D2 主题', hey: 'Hey 主题', lte: 'LTE 主题' },
  info: {
    tabInfo: '个人信息', tabPassword: '修改密码', avatar: '头像', name: '姓名', realName: '真实姓名', account: '用户名', phone: '手机号',
    email: '邮箱', oldPassword: '原密码', newPassword: '新密码', newPassword1: '确认密码', avatarType: '头像只能是 JPG/PNG 格式!',
    avatarSize: '头像大小不能超过 500KB!', upload: '上传头像', updated: '修改成功', mismatch: '两次密码输入不一致', emailBad: '邮箱格式不正确',
    required: '请输入{{field}}', mustChange: '首次登录或密码已被重置，请先修改密码',
  },
  home: {
    greeting: '你好，{{name}}', tenant: '租户', roles: '角色', dept: '部门', quickLinks: '快捷入口', noMenus: '您还没有任何菜单权限，请联系管理员。',
    dashboardTitle: '控制台', menus: '可用菜单', topMenus: '顶部菜单', errors: '本地错误日志', session: '会话',
  },
  crud: {
    add: '新增', edit: '编辑', view: '查看', delete: '删除', actions: '操作', added: '新增成功', updated: '更新成功', deleted: '删除成功',
    selectOne: '请选择至少一条数据', confirmDelete: '确定将选择数据删除?', stale: '数据已被他人修改，是否重新加载？', reload: '重新加载',
    total: '共 {{n}} 条', required: '请输入{{field}}', addChild: '新增子项',
  },
  post: {
    title: '岗位管理', category: '岗位类型', postCode: '岗位编号', postName: '岗位名称', sort: '排序', remark: '备注',
    codeRequired: '请输入岗位编号', nameRequired: '请输入岗位名称', categoryRequired: '请选择岗位类型',
  },
  system: { granted: '授权成功', shownOnce: '此信息只显示这一次，请立即复制并妥善保存。' },
  param: {
    title: '参数管理', paramName: '参数名称', paramKey: '参数键名', paramValue: '参数键值', remark: '备注',
    nameRequired: '请输入参数名称', keyRequired: '请输入参数键名', valueRequired: '请输入参数键值',
  },
  client: {
    title: '应用管理', clientId: '客户端 ID', clientSecret: '客户端密钥', secretHint: '留空：新增时自动生成，修改时不变', scope: '权限范围',
    grantTypes: '授权类型', redirectUri: '回调地址', accessValidity: '令牌有效期（秒）', refreshValidity: '刷新令牌有效期（秒）', secretTitle: '客户端密钥',
  },
  tenant: {
    title: '租户管理', tenantId: '租户编号', idHint: '留空自动生成 6 位编号', tenantName: '租户名称', linkman: '联系人', contactNumber: '联系电话',
    domain: '域名地址', address: '联系地址', backgroundUrl: '系统背景', accountNumber: '账号额度', accountHint: '-1 表示不限', expireTime: '过期时间',
    expireHint: '留空表示不限', unlimited: '不限', setting: '授权配置', settingSaved: '授权配置成功', accountRequired: '请输入账号额度',
    adminTitle: '租户管理员账号', adminAccount: '管理员账号', adminPassword: '初始密码',
  },
  scope: {
    dataTitle: '数据权限', apiTitle: '接口权限', menuId: '所属菜单', menuRequired: '请选择所属菜单', resourceCode: '资源编号', scopeName: '权限名称',
    scopeType: '权限类型', type1: '全部', type2: '本人', type3: '本部门', type4: '本部门及以下', type5: '自定义', scopeColumn: '权限字段',
    scopeValue: '权限值', valueHint: '多个值用逗号分隔', scopePath: '接口地址', pathHint: '/api/…，末尾可用 * 通配', scopeMethod: '请求方法',
    anyMethod: '全部 (*)', remark: '备注',
  },
  topmenu: { title: '顶部菜单', name: '菜单名称', code: '菜单编号', source: '菜单图标', sort: '排序', setting: '菜单配置' },
  role: {
    title: '角色管理', roleName: '角色名称', roleAlias: '角色别名', parentId: '上级角色', sort: '排序', grant: '权限设置',
    menuTab: '菜单权限', dataTab: '数据权限', apiTab: '接口权限',
  },
  menu: {
    title: '菜单管理', name: '菜单名称', code: '菜单编号', alias: '菜单别名', path: '路由地址', parentId: '上级菜单', source: '菜单图标',
    category: '菜单类型', categoryMenu: '菜单', categoryButton: '按钮', action: '按钮功能', action0: '无', action1: '工具栏', action2: '操作栏',
    action3: '工具操作栏', isOpen: '打开方式', openInApp: '系统内打开', openNewWindow: '新窗口打开', sort: '排序', remark: '备注',
  },
  dept: {
    title: '机构管理', deptName: '机构名称', fullName: '机构全称', parentId: '上级机构', deptCategory: '机构类型', company: '公司', department: '部门',
    group: '小组', sort: '排序', remark: '备注',
  },
  user: {
    title: '用户管理', depts: '机构', account: '登录账号', password: '密码', realName: '用户姓名', name: '用户昵称', phone: '手机号码', email: '电子邮箱',
    sex: '性别', birthday: '生日', male: '男', female: '女', unknown: '未知', deptId: '所属机构', postId: '所属岗位', roleIds: '所属角色', status: '状态',
    status1: '正常', status2: '待审核', status3: '停用', roleConfig: '角色配置', pickRoles: '请选择角色', resetPassword: '重置密码',
    resetConfirm: '确定将选择账号密码重置？', resetTitle: '新密码（首次登录须修改）', approve: '审核', approveConfirm: '确定通过选择账号的注册申请？',
    approved: '审核成功', unlock: '解锁', unlockConfirm: '确定解锁选择的账号？', unlocked: '解锁成功',
  },
  dict: {
    title: '系统字典', bizTitle: '业务字典', childTitle: '字典配置', config: '字典配置', pickParent: '请先在字典列表中选择一个字典',
    code: '字典编号', dictValue: '字典名称', parentId: '上级字典', dictKey: '字典键值', sort: '字典排序', isSealed: '封存', remark: '字典备注',
    codeRequired: '请输入字典编号', valueRequired: '请输入字典名称', sortRequired: '请输入字典排序', sealedRequired: '请选择字典封存', keyRequired: '请输入字典键值',
  },
  topMenus: { desk: '工作台', system: '系统', business: '业务', flow: '流程' } as Record<string, string>,
  test: { title: '测试页', body: '这是一个测试页面，用于检查布局、标签和缓存。', counter: '计数器（切换标签后应保留）：{{n}}' },
};
export default zh;
export type Messages = typeof zh;
