import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { encodeMsg, messages } from '@atrium/contract';
import { ok } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { registerGuest, updateInfo, updatePassword, userInfo } from './service.ts';
import { selfTexts as texts, userTexts } from './messages.ts';

const phone = z.string().regex(/^1[3-9]\d{9}$/, encodeMsg(texts.phoneFormat));
const infoBody = z.object({
  avatar: z.string().max(500).optional(),
  name: z.string().trim().max(20).optional(),
  realName: z.string().trim().max(10).optional(),
  phone: z.union([phone, z.literal('')]).optional(),
  email: z.union([z.email(encodeMsg(texts.emailFormat)).max(45), z.literal('')]).optional(),
});

const passwordBody = z.object({
  oldPassword: z.string().min(1, encodeMsg(texts.oldPasswordRequired)).max(128),
  newPassword: z.string().min(1, encodeMsg(texts.newPasswordRequired)).max(128),
  newPassword1: z.string().min(1, encodeMsg(texts.confirmRequired)).max(128),
});

const guestBody = z.object({
  tenantId: z.string().trim().min(1, encodeMsg(texts.tenantRequired)).max(12),
  // Stored as the real name too: no longer than that column (10).
  name: z.string().trim().max(10, encodeMsg(texts.nameTooLong)).optional(),
  account: z
    .string()
    .trim()
    .min(1, encodeMsg(texts.accountRequired))
    .max(45)
    .regex(/^[A-Za-z0-9_.@-]+$/, encodeMsg(texts.accountChars)),
  password: z.string().min(1, encodeMsg(texts.passwordRequired)).max(128),
  oauthId: z.string().max(64).optional(),
});

export function selfRoutes(root: FastifyInstance, s: Services) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get('/api/blade-user/info', { schema: { tags: ['user'] } }, async (req) =>
    ok(await userInfo(s, requireAuth(req))),
  );

  app.post('/api/blade-user/update-info', { schema: { tags: ['user'], body: infoBody } }, async (req) =>
    ok(await updateInfo(s, requireAuth(req), req.body), messages.updated),
  );

  app.post('/api/blade-user/update-password', { schema: { tags: ['user'], body: passwordBody } }, async (req) =>
    ok(await updatePassword(s, requireAuth(req), req.body), userTexts.passwordChanged),
  );

  app.post(
    '/api/blade-user/register-guest',
    {
      config: { auth: 'none' },
      schema: { tags: ['user'], body: guestBody },
    },
    async (req) => ok(await registerGuest(s, req.body), userTexts.registered),
  );
}
