import type { Messages } from './zh';

const en: Messages = {
  title: 'Atrium city device and client console',
  common: { ok: 'OK', cancel: 'Cancel', save: 'Save', submit: 'Submit', reset: 'Reset', search: 'Search', loading: 'Loading…', back: 'Back', refresh: 'Refresh' },
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
    total: '{{n}} in all', required: 'Enter the {{field}}',
  },
  post: {
    title: 'Posts', category: 'Category', postCode: 'Post code', postName: 'Post name', sort: 'Sort', remark: 'Remark',
    codeRequired: 'Enter the post code', nameRequired: 'Enter the post name', categoryRequired: 'Choose the category',
  },
  topMenus: { desk: 'Desk', system: 'System', business: 'Business', flow: 'Workflow' } as Record<string, string>,
  test: { title: 'Test page', body: 'A test page to check the layout, tags and caching.', counter: 'Counter (kept when you switch tabs): {{n}}' },
};
export default en;
