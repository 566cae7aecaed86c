/** Wire shapes of docs/system-api.md shared by server and web. */
export type R<T> = { code: number; success: boolean; data: T; msg: string };
export type Page<T> = { records: T[]; total: number; size: number; current: number; pages: number };
export type MenuNode = {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: number;
  action: number;
  isOpen: number;
  remark: string;
  hasChildren: boolean;
  children: MenuNode[];
};
export type TopMenu = { id: string; code: string; name: string; source: string | null; sort: number };
export type TokenResponse = {
  access_token: string;
  token_type: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  tenant_id: string;
  user_id: string;
  user_name: string;
  account: string;
  real_name: string;
  nick_name: string;
  avatar: string;
  role_id: string;
  role_name: string;
  dept_id: string;
  post_id: string;
  oauth_id: string;
  client_id: string;
  must_change_password?: boolean;
};
export type TokenError = { error_code: number; error_description: string };
/**
 * GET /api/blade-auth/oauth/captcha. `required`: the server refuses logins without a captcha (ATRIUM_CAPTCHA=on, the
 * default); when false the login form shows no captcha and signs in with the password grant (docs/system-api.md).
 */
export type Captcha = { key: string; image: string; required: boolean };
export type UserInfo = {
  id: string;
  tenantId: string;
  tenantName: string;
  account: string;
  name: string;
  realName: string;
  avatar: string;
  email: string;
  phone: string;
  deptId: string;
  deptName: string;
  postId: string;
  roleId: string;
  roleName: string;
  roles: string[];
  mustChangePassword: boolean;
};
