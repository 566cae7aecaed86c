import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { messages, user as api } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { user } from '../../../db/schema/index.ts';
import { fromContract } from '../../../platform/contract-route.ts';
import { idParam, type CrudService } from '../../../platform/crud.ts';
import { ok } from '../../../platform/envelope.ts';
import { notFound } from '../../../platform/errors.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Binding } from '../../../platform/resource.ts';
import type { Services } from '../../../platform/services.ts';
import { withTenant } from '../../../platform/tenant-db.ts';

const tags = ['user'];

/** The user screen's calls beside the definition's routes, under its base: `update` and `platform-detail`. */
export const adminRoutes: FastifyPluginAsync<{ s: Services; svc: CrudService; binding: Binding }> = async (
  plain,
  { s, svc, binding },
) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // Submit and update differ only in that update needs an id; both pass the same checks.
  app.post(
    '/update',
    {
      config: { permission: 'user_edit', labels: binding.spec.labels },
      schema: {
        tags,
        body: binding.spec.body.extend({ id: idParam, version: z.coerce.number().int().positive().optional() }),
      },
    },
    async (req) => {
      const body = req.body as Record<string, unknown> & { id: string; version?: number };
      return ok(await svc.submit(requireAuth(req), body, req.id), messages.updated);
    },
  );

  app.route({
    ...fromContract(api.platformDetail, apiSchemas.user.platformDetail, tags, app.prefix),
    handler: async (req) => {
      const auth = requireAuth(req);
      const { id } = req.query;
      const scope = await svc.scopeOf(auth);
      const [u] = await withTenant(s.db, auth.tenantId, (tx) =>
        tx
          .select()
          .from(user)
          .where(and(eq(user.tenantId, auth.tenantId), eq(user.isDeleted, 0), eq(user.id, id), scope)),
      );
      if (!u) throw notFound();
      return ok({
        id: u.id,
        tenantId: u.tenantId,
        account: u.account,
        name: u.name,
        realName: u.realName,
        userType: u.userType,
        userExt: u.userExt ?? '',
      });
    },
  });
};
