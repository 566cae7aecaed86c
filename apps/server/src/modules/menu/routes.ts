import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { shell } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { fromContract } from '../../platform/contract-route.ts';
import { ok } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { buttons, routes, topMenus } from './service.ts';

export function menuRoutes(root: FastifyInstance, s: Services) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['menu'];
  app.route({
    ...fromContract(shell.menuRoutes, apiSchemas.shell.menuRoutes, tags),
    handler: async (req, reply) => {
      const auth = requireAuth(req);
      const top = req.query.topMenuId || undefined;
      // Every page asks for these: the serialized envelope is cached with the tree, per tenant and role set.
      const body = await s.cache.get(
        auth.tenantId,
        `routes-json:${[...auth.roleIds].sort().join(',')}:${top ?? ''}`,
        async () => JSON.stringify(ok(await routes(s, auth, top))),
      );
      return reply.type('application/json; charset=utf-8').send(body);
    },
  });

  app.route({
    ...fromContract(shell.menuButtons, apiSchemas.shell.menuButtons, tags),
    handler: async (req, reply) => {
      const auth = requireAuth(req);
      const body = await s.cache.get(auth.tenantId, `buttons-json:${[...auth.roleIds].sort().join(',')}`, async () =>
        JSON.stringify(ok(await buttons(s, auth))),
      );
      return reply.type('application/json; charset=utf-8').send(body);
    },
  });
  app.route({
    ...fromContract(shell.topMenus, apiSchemas.shell.topMenus, tags),
    handler: async (req) => ok(await topMenus(s, requireAuth(req))),
  });
}
