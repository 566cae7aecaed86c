import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { oauthClient } from '../../db/schema/index.ts';
import { crudRoutes, type Row } from '../../platform/crud.ts';
import { badRequest } from '../../platform/errors.ts';
import { fieldText, requiredText } from '../../platform/fields.ts';
import { sha256Hex } from '../../platform/password.ts';
import type { Services } from '../../platform/services.ts';

const GRANTS = ['password', 'refresh_token', 'captcha', 'social', 'authorization_code', 'client_credentials'];
const grantsMsg = fieldText(`授权类型只能是 ${GRANTS.join(', ')}`, `Grant types must be among ${GRANTS.join(', ')}`);

const body = z.object({
  clientId: requiredText('请输入客户端编号', 'Enter the client id', 48).regex(
    /^[A-Za-z0-9_-]+$/,
    fieldText('客户端编号只能包含字母、数字、_ 和 -', 'Letters, digits, _ and - only'),
  ),
  /** Insert: generated when empty. Update: replaced only when sent. Never returned except once, on insert. */
  clientSecret: z
    .string()
    .trim()
    .min(16, fieldText('客户端密钥至少 16 个字符', 'The secret needs at least 16 characters'))
    .max(128)
    .optional()
    .or(z.literal('')),
  scope: z.string().trim().max(255).default('all'),
  authorizedGrantTypes: requiredText('请选择授权类型', 'Choose the grant types', 255).refine(
    (v) => v.split(',').every((g) => GRANTS.includes(g.trim())),
    grantsMsg,
  ),
  webServerRedirectUri: z
    .union([
      z.url({
        protocol: /^https?$/,
        error: fieldText('回调地址必须以 http 或 https 开头', 'The redirect URI must start with http or https'),
      }),
      z.literal(''),
    ])
    .optional()
    .nullable(),
  accessTokenValidity: z.coerce
    .number()
    .int()
    .min(60)
    .max(86400 * 30)
    .default(3000),
  refreshTokenValidity: z.coerce
    .number()
    .int()
    .min(60)
    .max(86400 * 365)
    .default(604800),
});

/** OAuth clients (spec §7 "client"): platform-wide, the platform administrator's alone; secrets are stored as digests. */
export function clientRoutes(app: FastifyInstance, s: Services) {
  crudRoutes(app, s, {
    entity: 'client',
    table: oauthClient,
    base: '/api/blade-system/client',
    global: true,
    platform: true,
    codes: { view: 'client', add: 'client_add', edit: 'client_edit', remove: 'client_delete' },
    body,
    list: {
      filters: { clientId: { column: oauthClient.clientId, op: 'like' } },
      sorts: { clientId: oauthClient.clientId, createTime: oauthClient.createTime },
      createTime: oauthClient.createTime,
    },
    unique: {
      oauth_client_client_id_uq: {
        field: 'clientId',
        text: { zh: '客户端编号已存在', en: 'The client id already exists' },
      },
    },
    present: ({ clientSecretHash: _h, ...row }: Row) => ({ ...row, clientSecret: '******' }),
    async beforeSave({ input, existing }) {
      const given = input.clientSecret || undefined;
      if (existing) return { clientSecret: undefined, ...(given ? { clientSecretHash: sha256Hex(given) } : {}) };
      const secret = given ?? randomBytes(24).toString('base64url');
      pending.set(input, secret);
      return { clientSecret: undefined, clientSecretHash: sha256Hex(secret) };
    },
    // The secret is shown once, in the answer to the insert.
    async afterSave({ input, existing }) {
      if (existing) return;
      const secret = pending.get(input);
      pending.delete(input);
      return { clientSecret: secret };
    },
    async beforeRemove(_tx, _ids, auth, rows) {
      if (rows.some((r) => r.clientId === auth.clientId)) {
        throw badRequest({
          zh: '不能删除当前登录所用的客户端',
          en: 'The client of your own session cannot be removed',
        });
      }
    },
  });
}

const pending = new WeakMap<object, string>();
