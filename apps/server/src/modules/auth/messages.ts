import type { Msg } from '@atrium/contract';
import { platformTexts } from '../../platform/messages.ts';

/**
 * Texts of the auth module (the message catalogue's per-module part). The token endpoint answers them as
 * `error_description` in the request's language.
 */
export const authTexts = {
  badClient: { zh: '客户端认证失败', en: 'Client authentication failed' },
  badClientHeader: {
    zh: '客户端认证信息格式错误：Authorization 应为 Basic base64(客户端ID:密钥)，且不含控制字符',
    en: 'Malformed client credentials: Authorization must be Basic base64(clientId:secret) without control characters',
  },
  badGrant: { zh: '不支持的授权类型', en: 'Unsupported grant type' },
  badCredentials: { zh: '用户名或密码错误', en: 'Wrong user name or password' },
  badCaptcha: { zh: '验证码不正确', en: 'The captcha is incorrect' },
  captchaRequired: { zh: '当前必须使用验证码登录', en: 'Login requires a captcha' },
  noTenant: { zh: '租户不存在', en: 'The tenant does not exist' },
  tenantExpired: platformTexts.tenantExpired,
  tenantDisabled: { zh: '租户已停用', en: 'The tenant is disabled' },
  pending: { zh: '账号尚未通过审核，请等待管理员审批', en: 'The account is awaiting administrator approval' },
  disabled: { zh: '账号已被停用', en: 'The account is disabled' },
  badRefresh: { zh: '刷新令牌无效或已过期', en: 'The refresh token is invalid or expired' },
  noSocial: { zh: '未配置第三方登录', en: 'No third-party login is configured' },
  missing: { zh: '缺少用户名或密码', en: 'User name and password are required' },
  /** A login from an address on the blacklist (docs/system-api.md "Blacklist"): says nothing of the list. */
  ipBlocked: {
    zh: '当前网络环境不允许登录，请联系管理员',
    en: 'Sign-in is not allowed from this network; contact your administrator',
  },
  /** `{minutes}`: until the oldest counted failure leaves the window. */
  locked: {
    zh: '账号已被锁定，请 {minutes} 分钟后重试',
    en: 'The account is locked; try again in {minutes} minute(s)',
  },
} satisfies Record<string, Msg>;
