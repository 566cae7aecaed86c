import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parentParam } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { buttons, routes, topMenus } from './service.ts';

/** A top menu's id, within bigint range (the one id rule of the factory). */
const idString = parentParam;

export function menuRoutes(root: FastifyInstance, s: Services) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/blade-system/menu/routes',
    {
      schema: { tags: ['menu'], querystring: z.object({ topMenuId: z.union([idString, z.literal('')]).optional() }) },
    },
    async (req, reply) => {
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
  );

  app.get('/api/blade-system/menu/buttons', { schema: { tags: ['menu'] } }, async (req, reply) => {
    const auth = requireAuth(req);
    const body = await s.cache.get(auth.tenantId, `buttons-json:${[...auth.roleIds].sort().join(',')}`, async () =>
      JSON.stringify(ok(await buttons(s, auth))),
    );
    return reply.type('application/json; charset=utf-8').send(body);
  });
  app.get('/api/blade-system/menu/top-menu', { schema: { tags: ['menu'] } }, async (req) =>
    ok(await topMenus(s, requireAuth(req))),
  );
}
