import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { registerGuest, updateInfo, updatePassword, userInfo } from './service.ts';

const phone = z.string().regex(/^1[3-9]\d{9}$/, '手机号码格式不正确');
const infoBody = z.object({
  avatar: z.string().max(500).optional(),
  name: z.string().trim().max(20).optional(),
  realName: z.string().trim().max(10).optional(),
  phone: z.union([phone, z.literal('')]).optional(),
  email: z.union([z.email('邮箱格式不正确').max(45), z.literal('')]).optional(),
});

const passwordBody = z.object({
  oldPassword: z.string().min(1, '请输入原密码').max(128),
  newPassword: z.string().min(1, '请输入新密码').max(128),
  newPassword1: z.string().min(1, '请确认新密码').max(128),
});

const guestBody = z.object({
  tenantId: z.string().trim().min(1, '请先输入租户编号').max(12),
  name: z.string().trim().max(20).optional(),
  account: z
    .string()
    .trim()
    .min(1, '请先输入账号名称')
    .max(45)
    .regex(/^[A-Za-z0-9_.@-]+$/, '账号只能包含字母、数字和 _ . @ -'),
  password: z.string().min(1, '请先输入密码').max(128),
  oauthId: z.string().max(64).optional(),
});

export function selfRoutes(root: FastifyInstance, s: Services) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get('/api/blade-user/info', { schema: { tags: ['user'] } }, async (req) =>
    ok(await userInfo(s, requireAuth(req))),
  );

  app.post('/api/blade-user/update-info', { schema: { tags: ['user'], body: infoBody } }, async (req) =>
    ok(await updateInfo(s, requireAuth(req), req.body), '更新成功'),
  );

  app.post('/api/blade-user/update-password', { schema: { tags: ['user'], body: passwordBody } }, async (req) =>
    ok(await updatePassword(s, requireAuth(req), req.body), '修改成功'),
  );

  app.post(
    '/api/blade-user/register-guest',
    {
      config: { auth: 'none' },
      schema: { tags: ['user'], body: guestBody },
    },
    async (req) => ok(await registerGuest(s, req.body), '注册申请已提交'),
  );
}
