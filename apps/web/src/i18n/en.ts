import type { Messages } from './zh';

const en: Messages = {
  title: 'Atrium city device and client console',
  common: { ok: 'OK', cancel: 'Cancel', save: 'Save', submit: 'Submit', reset: 'Reset', search: 'Search', loading: 'Loading…', back: 'Back', refresh: 'Refresh', yes: 'Yes', no: 'No' },
  http: { timeout: 'The request timed out; try again later', network: 'Network error: the server cannot be reached', unknown: 'Unknown error' },
  login: {
    title: 'Log in', welcome: 'Welcome to Atrium', subtitle: 'City devices, video and clients console', tenant: 'Tenant ID', username: 'User name',
    password: 'Password', captcha: 'Captcha', submit: 'Log in', refreshCaptcha: 'Click for a new captcha', register: 'Register a third-party account',
    tenantRequired: 'Enter the tenant ID', usernameRequired: 'Enter the user name', passwordRequired: 'Enter the password', captchaRequired: 'Enter the captcha',
    success: 'Logged in', captchaFailed: 'The captcha did not load; click to retry',
  },
  register: {
    title: 'Third-party account registration', tenantId: 'Tenant ID', name: 'Name', account: 'Account', password: 'Password', password2: 'Confirm password',
    needTenant: 'Enter the tenant ID first', needAccount: 'Enter the account name first', needPassword: 'Enter the password first', mismatch: 'The two passwords differ',
    failed: 'Submission failed', doneTitle: 'Registration', done: 'Your application has been submitted; please wait for an administrator to approve it.',
  },
  tags: { home: 'Home', clearCache: 'Clear cache', closeOthers: 'Close others', closeAll: 'Close all', refresh: 'Reload page', cleared: 'Cleared' },
  page: {
    home: 'Home', dashboard: 'Dashboard', test: 'Test page', info: 'Personal info', lock: 'Lock screen', iframe: 'External page',
    notFound: 'Sorry, this page does not exist', forbidden: 'Sorry, you may not open this page', serverError: 'Sorry, the server failed', goHome: 'Back home',
    notAvailable: 'This page is not available in this build yet', notAvailableHint: 'The menu “{{name}}” is configured, but its screen is still being built.',
  },
  header: {
    dashboard: 'Dashboard', info: 'Personal info', logout: 'Log out', logoutConfirm: 'Log out of the console?', returnApp: 'Return to application', fullscreen: 'Fullscreen',
    exitFullscreen: 'Exit fullscreen', theme: 'Theme', colour: 'Colour', lock: 'Lock', errorLog: 'Error log', language: 'Language', notice: 'Notifications',
    search: 'Search menus', searchPlaceholder: 'Type a menu name (prefix)', noMatch: 'No menu matches', home: 'Home', collapse: 'Collapse menu',
  },
  lock: {
    setTitle: 'Set a lock password', password: 'Lock password', required: 'The lock password is required', unlockPlaceholder: 'Enter the lock password', wrong: 'Wrong lock password',
    unlock: 'Unlock', locked: 'Screen locked', logout: 'Log out',
  },
  logs: {
    title: 'Error log', type: 'Type', url: 'Address', message: 'Content', stack: 'Stack', time: 'Time', upload: 'Upload to server',
    clear: 'Clear local logs', sent: 'Sent!', cleared: 'Cleared!', empty: 'No errors logged',
  },
  notice: { mail: 'Mail', message: 'Messages', notice: 'Notices', page: 'Page {{page}}', loaded: 'Loaded page {{page}}', more: 'Load more' },
  themes: { default: 'Default', white: 'White', dark: 'Dark', star: 'Star', smart: 'Smart', iview: 'iView', vip: 'VIP', cool: 'Cool', d2: 'D2', hey: 'Hey', lte: 'LTE' },
  info: {
    tabInfo: 'Personal info', tabPassword: 'Change password', avatar: 'Avatar', name: 'Name', realName: 'Real name', account: 'User name', phone: 'Phone',
    email: 'Email', oldPassword: 'Old password', newPassword: 'New password', newPassword1: 'Confirm password', avatarType: 'The avatar must be a JPG or PNG!',
    avatarSize: 'The avatar may be at most 500 KB!', upload: 'Upload avatar', updated: 'Saved', mismatch: 'The two passwords differ', emailBad: 'The email is malformed',
    required: 'Enter the {{field}}', mustChange: 'First login or reset password: please change your password first',
  },
  home: {
    greeting: 'Hello, {{name}}', tenant: 'Tenant', roles: 'Roles', dept: 'Department', quickLinks: 'Quick links', noMenus: 'You have no menus yet; ask an administrator.',
    dashboardTitle: 'Dashboard', menus: 'Menus available', topMenus: 'Top menus', errors: 'Local error log', session: 'Session',
  },
  crud: {
    add: 'Add', edit: 'Edit', view: 'View', delete: 'Delete', actions: 'Actions', added: 'Added', updated: 'Updated', deleted: 'Deleted',
    selectOne: 'Select at least one row', confirmDelete: 'Delete the selected rows?', stale: 'Someone else changed this record. Reload it?', reload: 'Reload',
    total: '{{n}} in all', required: 'Enter the {{field}}', addChild: 'Add child',
  },
  post: {
    title: 'Posts', category: 'Category', postCode: 'Post code', postName: 'Post name', sort: 'Sort', remark: 'Remark',
    codeRequired: 'Enter the post code', nameRequired: 'Enter the post name', categoryRequired: 'Choose the category',
  },
  system: { granted: 'Granted', shownOnce: 'This is shown only once: copy it now and keep it safe.' },
  param: {
    title: 'Parameters', paramName: 'Name', paramKey: 'Key', paramValue: 'Value', remark: 'Remark',
    nameRequired: 'Enter the parameter name', keyRequired: 'Enter the parameter key', valueRequired: 'Enter the parameter value',
  },
  client: {
    title: 'OAuth clients', clientId: 'Client ID', clientSecret: 'Client secret', secretHint: 'Empty: generated on add, unchanged on edit', scope: 'Scope',
    grantTypes: 'Grant types', redirectUri: 'Redirect URI', accessValidity: 'Token lifetime (s)', refreshValidity: 'Refresh token lifetime (s)', secretTitle: 'Client secret',
  },
  tenant: {
    title: 'Tenants', tenantId: 'Tenant ID', idHint: 'Empty: a 6-digit ID is generated', tenantName: 'Tenant name', linkman: 'Contact', contactNumber: 'Contact number',
    domain: 'Domain', address: 'Address', backgroundUrl: 'Background', accountNumber: 'Account quota', accountHint: '-1 means unlimited', expireTime: 'Expires',
    expireHint: 'Empty means never', unlimited: 'Unlimited', setting: 'Settings', settingSaved: 'Settings saved', accountRequired: 'Enter the account quota',
    adminTitle: "Tenant administrator", adminAccount: 'Administrator account', adminPassword: 'Initial password',
  },
  scope: {
    dataTitle: 'Data scopes', apiTitle: 'API scopes', menuId: 'Menu', menuRequired: 'Choose the menu', resourceCode: 'Resource code', scopeName: 'Scope name',
    scopeType: 'Scope type', type1: 'All', type2: 'Own records', type3: 'Own department', type4: 'Own department and below', type5: 'Custom', scopeColumn: 'Column',
    scopeValue: 'Values', valueHint: 'Comma-separated values', scopePath: 'API path', pathHint: '/api/…, may end with the * wildcard', scopeMethod: 'Method',
    anyMethod: 'Any (*)', remark: 'Remark',
  },
  topmenu: { title: 'Top menus', name: 'Name', code: 'Code', source: 'Icon', sort: 'Sort', setting: 'Menu settings' },
  role: {
    title: 'Roles', roleName: 'Role name', roleAlias: 'Role alias', parentId: 'Parent role', sort: 'Sort', grant: 'Grant',
    menuTab: 'Menus', dataTab: 'Data scopes', apiTab: 'API scopes',
  },
  menu: {
    title: 'Menus', name: 'Name', code: 'Code', alias: 'Alias', path: 'Route', parentId: 'Parent menu', source: 'Icon',
    category: 'Type', categoryMenu: 'Menu', categoryButton: 'Button', action: 'Button place', action0: 'None', action1: 'Toolbar', action2: 'Row',
    action3: 'Toolbar and row', isOpen: 'Opens', openInApp: 'In the console', openNewWindow: 'In a new window', sort: 'Sort', remark: 'Remark',
  },
  dept: {
    title: 'Departments', deptName: 'Name', fullName: 'Full name', parentId: 'Parent', deptCategory: 'Type', company: 'Company', department: 'Department',
    group: 'Group', sort: 'Sort', remark: 'Remark',
  },
  user: {
    title: 'Users', depts: 'Departments', account: 'Account', password: 'Password', realName: 'Real name', name: 'Nickname', phone: 'Phone', email: 'Email',
    sex: 'Sex', birthday: 'Birthday', male: 'Male', female: 'Female', unknown: 'Unknown', deptId: 'Department', postId: 'Post', roleIds: 'Roles', status: 'Status',
    status1: 'Active', status2: 'Awaiting approval', status3: 'Disabled', roleConfig: 'Assign roles', pickRoles: 'Choose the roles', resetPassword: 'Reset password',
    resetConfirm: 'Reset the passwords of the selected accounts?', resetTitle: 'New passwords (must be changed at first login)', approve: 'Approve',
    approveConfirm: 'Approve the registrations of the selected accounts?', approved: 'Approved', unlock: 'Unlock', unlockConfirm: 'Unlock the selected accounts?', unlocked: 'Unlocked',
  },
  dict: {
    title: 'System dictionaries', bizTitle: 'Business dictionaries', childTitle: 'Entries', config: 'Entries', pickParent: 'Pick a dictionary in the list first',
    code: 'Code', dictValue: 'Name', parentId: 'Parent', dictKey: 'Key', sort: 'Sort', isSealed: 'Sealed', remark: 'Remark',
    codeRequired: 'Enter the dictionary code', valueRequired: 'Enter the dictionary name', sortRequired: 'Enter the sort order', sealedRequired: 'Choose whether it is sealed', keyRequired: 'Enter the dictionary key',
  },
  topMenus: { desk: 'Desk', system: 'System', business: 'Business', flow: 'Workflow' } as Record<string, string>,
  test: { title: 'Test page', body: 'A test page to check the layout, tags and caching.', counter: 'Counter (kept when you switch tabs): {{n}}' },
};
export default en;
