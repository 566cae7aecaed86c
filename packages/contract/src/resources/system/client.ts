import { defineResource } from '../../resource/define.ts';

/** The grant types a client may be allowed. */
export const GRANT_TYPES = [
  'password',
  'refresh_token',
  'captcha',
  'social',
  'authorization_code',
  'client_credentials',
] as const;
const grant = `(${GRANT_TYPES.join('|')})`;

/**
 * 应用管理: OAuth clients, platform-wide. The secret is stored as a digest: generated on insert when left empty
 * and answered once, in the insert's answer; an update replaces it only when one is sent; every other answer
 * carries the mask `******`.
 */
export const client = defineResource({
  code: 'client',
  group: 'system',
  base: '/api/blade-system/client',
  label: { zh: '应用管理', en: 'OAuth clients' },
  scope: 'platform',
  fields: {
    clientId: {
      kind: 'text',
      label: { zh: '客户端编号', en: 'Client ID' },
      required: { zh: '请输入客户端编号', en: 'Enter the client id' },
      pattern: {
        regex: '^[A-Za-z0-9_-]+$',
        message: { zh: '客户端编号只能包含字母、数字、_ 和 -', en: 'Letters, digits, _ and - only' },
      },
      unique: { zh: '客户端编号已存在', en: 'The client id already exists' },
      search: 'like',
      sort: true,
    },
    // Not a `secret` field: its answers carry the mask, and the insert's answer the generated value (module hooks).
    clientSecret: {
      kind: 'text',
      column: false,
      max: 128,
      label: { zh: '客户端密钥', en: 'Client secret' },
      pattern: {
        regex: '^[\\s\\S]{16,}$',
        message: { zh: '客户端密钥至少 16 个字符', en: 'The secret needs at least 16 characters' },
      },
      sample: 'Sample#Client#Secret#2026',
      ui: {
        column: false,
        // Typed like a password, never loaded into the dialog (the answers carry the mask).
        widget: 'secret',
        placeholder: { zh: '留空：新增时自动生成，修改时不变', en: 'Empty: generated on add, unchanged on edit' },
      },
    },
    scope: { kind: 'text', label: { zh: '权限范围', en: 'Scope' }, default: 'all' },
    authorizedGrantTypes: {
      kind: 'text',
      label: { zh: '授权类型', en: 'Grant types' },
      required: { zh: '请选择授权类型', en: 'Choose the grant types' },
      // A comma list, stored as typed.
      pattern: {
        regex: `^\\s*${grant}\\s*(,\\s*${grant}\\s*)*$`,
        message: {
          zh: `授权类型只能是 ${GRANT_TYPES.join(', ')}`,
          en: `Grant types must be among ${GRANT_TYPES.join(', ')}`,
        },
      },
      default: 'password,refresh_token',
      sample: 'password,refresh_token',
    },
    webServerRedirectUri: {
      kind: 'text',
      label: { zh: '回调地址', en: 'Redirect URI' },
      pattern: {
        regex: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+([/?#]\\S*)?$',
        message: { zh: '回调地址必须以 http 或 https 开头', en: 'The redirect URI must start with http or https' },
      },
      sample: 'https://example.com/callback',
      ui: { column: false },
    },
    accessTokenValidity: {
      kind: 'int',
      min: 60,
      max: 86400 * 30,
      label: { zh: '令牌有效期（秒）', en: 'Token lifetime (s)' },
      default: 3000,
    },
    refreshTokenValidity: {
      kind: 'int',
      min: 60,
      max: 86400 * 365,
      label: { zh: '刷新令牌有效期（秒）', en: 'Refresh token lifetime (s)' },
      default: 604800,
    },
  },
});
