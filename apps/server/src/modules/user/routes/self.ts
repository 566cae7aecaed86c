import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messages, user as api } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { fromContract } from '../../../platform/contract-route.ts';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Services } from '../../../platform/services.ts';
import { registerGuest, updateInfo, updatePassword, userInfo } from '../service.ts';
import { userTexts } from '../messages.ts';

/** The user's own account: info, update-info, update-password, register-guest (declared in the contract's user area). */
export const selfRoutes: FastifyPluginAsync<{ s: Services }> = async (plain, { s }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const tags = ['user'];
  app.route({
    ...fromContract(api.info, apiSchemas.user.info, tags),
    handler: async (req) => ok(await userInfo(s, requireAuth(req))),
  });
  app.route({
    ...fromContract(api.updateInfo, apiSchemas.user.updateInfo, tags),
    handler: async (req) => ok(await updateInfo(s, requireAuth(req), req.body), messages.updated),
  });
  app.route({
    ...fromContract(api.updatePassword, apiSchemas.user.updatePassword, tags),
    handler: async (req) => ok(await updatePassword(s, requireAuth(req), req.body), userTexts.passwordChanged),
  });
  app.route({
    ...fromContract(api.registerGuest, apiSchemas.user.registerGuest, tags),
    handler: async (req) => ok(await registerGuest(s, req.body), userTexts.registered),
  });
};
