import { z } from 'zod';
import { encodeMsg, idLabels } from '../../resource/messages.ts';
import { idSchema } from '../../resource/schema.ts';
import { apiTexts as texts } from '../messages.ts';
import { userInfoSchema } from '../shapes.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of the user's own calls (addresses in user.ts). */

const phone = z.string().regex(/^1[3-9]\d{9}$/, encodeMsg(texts.phoneFormat));

export const info = { answer: userInfoSchema } satisfies RouteSchemas;

export const updateInfo = {
  body: z.object({
    avatar: z.string().max(500).optional(),
    name: z.string().trim().max(20).optional(),
    realName: z.string().trim().max(10).optional(),
    phone: z.union([phone, z.literal('')]).optional(),
    email: z.union([z.email(encodeMsg(texts.emailFormat)).max(45), z.literal('')]).optional(),
  }),
  answer: userInfoSchema,
} satisfies RouteSchemas;

export const updatePassword = {
  body: z.object({
    oldPassword: z.string().min(1, encodeMsg(texts.oldPasswordRequired)).max(128),
    newPassword: z.string().min(1, encodeMsg(texts.newPasswordRequired)).max(128),
    newPassword1: z.string().min(1, encodeMsg(texts.confirmRequired)).max(128),
  }),
  answer: z.boolean(),
} satisfies RouteSchemas;

export const registerGuest = {
  body: z.object({
    tenantId: z.string().trim().min(1, encodeMsg(texts.guestTenantRequired)).max(12),
    // Stored as the real name too: no longer than that column (10).
    name: z.string().trim().max(10, encodeMsg(texts.guestNameTooLong)).optional(),
    account: z
      .string()
      .trim()
      .min(1, encodeMsg(texts.guestAccountRequired))
      .max(45)
      .regex(/^[A-Za-z0-9_.@-]+$/, encodeMsg(texts.guestAccountChars)),
    password: z.string().min(1, encodeMsg(texts.guestPasswordRequired)).max(128),
    oauthId: z.string().max(64).optional(),
  }),
  answer: z.boolean(),
} satisfies RouteSchemas;

export const platformDetail = {
  query: z.object({ id: idSchema(idLabels.id) }),
  answer: z.object({
    id: z.string(),
    tenantId: z.string(),
    account: z.string(),
    name: z.string().nullable(),
    realName: z.string().nullable(),
    userType: z.number().int().nullable(),
    userExt: z.string(),
  }),
} satisfies RouteSchemas;
