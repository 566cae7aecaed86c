import { and, eq } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenant as tenantDef } from '@atrium/contract/resources/system/tenant';
import { tenant } from '../../db/schema/index.ts';
import { PLATFORM_TENANT } from '../../platform/access.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest } from '../../platform/errors.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { tenantTexts as texts } from './messages.ts';
import { nextTenantId, provisionTenant } from './service.ts';

/** Tenants (platform administrator only): creating one provisions it in the same transaction. */
export default defineModule((root, s) => {
  resourceRoutes(
    root,
    s,
    bindResource(tenantDef, tenant, {
      output: { adminAccount: { type: 'string' }, adminPassword: { type: 'string' } },
      async beforeSave({ tx, input, existing }) {
        const domain = typeof input.domain === 'string' && input.domain ? input.domain.toLowerCase() : null;
        if (existing) {
          if (input.tenantId && input.tenantId !== existing.tenantId)
            throw badRequest(texts.platformFixed, [{ field: 'tenantId', message: texts.platformFixed }]);
          return { domain };
        }
        return { tenantId: input.tenantId || (await nextTenantId(tx)), domain };
      },
      async afterSave({ tx, auth, existing, row }) {
        if (existing) return;
        const tenantRow = { tenantId: String(row.tenantId), tenantName: String(row.tenantName) };
        return provisionTenant(tx, tenantRow, auth, s.now());
      },
      async beforeRemove(_tx, _ids, _auth, rows) {
        if (rows.some((r) => r.tenantId === PLATFORM_TENANT)) throw badRequest(texts.platformFixed);
      },
      actions: {
        /** Account quota and expiry of several tenants at once. */
        async setting({ tx, rows, input }) {
          for (const r of rows) {
            await tx
              .update(tenant)
              .set({
                accountNumber: Number(input.accountNumber),
                ...(input.expireTime !== undefined ? { expireTime: (input.expireTime as Date | null) ?? null } : {}),
              })
              .where(eq(tenant.id, r.id));
          }
          return { changed: true };
        },
      },
    }),
  );

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['tenant'];

  // Per-tenant data sources are a later issue; say so rather than pretend.
  app.post(
    '/api/blade-system/tenant/datasource',
    {
      config: { permission: 'tenant_setting', platform: true },
      schema: { tags, querystring: z.record(z.string(), z.unknown()), body: z.unknown().optional() },
    },
    async () => {
      throw badRequest(texts.datasource);
    },
  );

  /** Public: the login page asks which tenant serves this host name. Unknown host → data null, not an error. */
  app.get(
    '/api/blade-system/tenant/info',
    {
      config: { auth: 'none' },
      schema: { tags, querystring: z.object({ domain: z.string().trim().max(255).default('') }) },
    },
    async (req) => {
      const domain = req.query.domain.toLowerCase();
      if (!domain) return ok(null);
      const [t] = await s.db
        .select({
          tenantId: tenant.tenantId,
          tenantName: tenant.tenantName,
          domain: tenant.domain,
          backgroundUrl: tenant.backgroundUrl,
        })
        .from(tenant)
        .where(and(eq(tenant.domain, domain), eq(tenant.isDeleted, 0), eq(tenant.status, 1)));
      return ok(t ?? null);
    },
  );
});
