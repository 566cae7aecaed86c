import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { tenant } from '../../db/schema/index.ts';
import { ok } from '../../platform/envelope.ts';
import type { Services } from '../../platform/services.ts';

export function tenantRoutes(root: FastifyInstance, s: Services) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  /** Public: the login page asks which tenant serves this host name. Unknown host → data null, not an error. */
  app.get('/api/blade-system/tenant/info', {
    config: { auth: 'none' },
    schema: { tags: ['tenant'], querystring: z.object({ domain: z.string().trim().max(255).default('') }) },
  }, async (req) => {
    const domain = req.query.domain.toLowerCase();
    if (!domain) return ok(null);
    const [t] = await s.db.select({ tenantId: tenant.tenantId, tenantName: tenant.tenantName, domain: tenant.domain, backgroundUrl: tenant.backgroundUrl })
      .from(tenant).where(and(eq(tenant.domain, domain), eq(tenant.isDeleted, 0), eq(tenant.status, 1)));
    return ok(t ?? null);
  });
}
