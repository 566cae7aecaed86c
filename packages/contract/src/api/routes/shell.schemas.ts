import { z } from 'zod';
import { idSchema } from '../../resource/schema.ts';
import { encodeMsg, idLabels } from '../../resource/messages.ts';
import { apiTexts } from '../messages.ts';
import { captchaSchema, menuNodeSchema, tokenSchema, topMenuSchema, userInfoSchema } from '../shapes.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of the shell's calls (addresses in shell.ts). */

const tokenInput = z.object({
  grant_type: z.string().max(32).optional(),
  tenantId: z.string().max(12).optional(),
  username: z.string().max(45).optional(),
  password: z.string().max(128).optional(),
  refresh_token: z.string().max(200).optional(),
  scope: z.string().max(64).optional(),
  type: z.string().max(32).optional(),
  source: z.string().max(64).optional(),
  code: z.string().max(500).optional(),
  state: z.string().max(500).optional(),
});

const dictionaryEntries = z.array(
  z.object({
    id: z.string(),
    parentId: z.string(),
    code: z.string(),
    dictKey: z.string(),
    dictValue: z.string(),
    sort: z.number().nullable().optional(),
    remark: z.string().nullable().optional(),
  }),
);

const cut = (n: number) =>
  z
    .string()
    .max(100_000)
    .transform((v) => v.slice(0, n));
const logEntry = z.object({
  type: z.string().max(32).default('error'),
  url: cut(1000).optional(),
  message: cut(4000).optional(),
  stack: cut(20000).optional(),
  info: cut(4000).optional(),
  // The client's clock as it reads it: at most the column's 64 characters (longer is a 400, never a database error).
  time: z
    .union([z.string().max(64, encodeMsg(apiTexts.logTimeTooLong)), z.number()])
    .transform(String)
    .optional(),
});

export const token = { query: tokenInput, answer: tokenSchema } satisfies RouteSchemas;
export const captcha = { answer: captchaSchema } satisfies RouteSchemas;
export const logout = { answer: z.boolean() } satisfies RouteSchemas;
export const oauthUserInfo = { answer: userInfoSchema } satisfies RouteSchemas;
export const clearCache = { answer: z.boolean() } satisfies RouteSchemas;
export const tenantInfo = {
  query: z.object({ domain: z.string().trim().max(255).default('') }),
  answer: z
    .object({
      tenantId: z.string(),
      tenantName: z.string(),
      domain: z.string().nullable().optional(),
      backgroundUrl: z.string().nullable().optional(),
    })
    .nullable(),
} satisfies RouteSchemas;
export const menuRoutes = {
  query: z.object({ topMenuId: z.union([idSchema(idLabels.id, { allowZero: true }), z.literal('')]).optional() }),
  answer: z.array(menuNodeSchema),
} satisfies RouteSchemas;
export const menuButtons = { answer: z.array(menuNodeSchema) } satisfies RouteSchemas;
export const topMenus = { answer: z.array(topMenuSchema) } satisfies RouteSchemas;
export const dictionary = {
  query: z.object({ code: z.string().trim().min(1).max(255) }),
  answer: dictionaryEntries,
} satisfies RouteSchemas;
export const bizDictionary = dictionary;
export const frameOrigins = { answer: z.object({ origins: z.array(z.string()) }) } satisfies RouteSchemas;
export const errorLogs = {
  body: z.union([z.array(logEntry).max(200), z.object({ logs: z.array(logEntry).max(200) })]),
  answer: z.number(),
} satisfies RouteSchemas;
