import { and, eq, or, sql } from 'drizzle-orm';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fill, shell, system } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { tenant as tenantDef } from '@atrium/contract/resources/system/tenant';
import { fromContract } from '../../platform/contract-route.ts';
import { tenant } from '../../db/schema/index.ts';
import { PLATFORM_TENANT } from '../../platform/access.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest } from '../../platform/errors.ts';
import { bumpEpoch } from '../../platform/live.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { databaseOfTenant } from '../../platform/tenant-route.ts';
import type { Db } from '../../db/client.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import { tenantTexts as texts } from './messages.ts';
import { repairAdmin } from './repair.ts';
import { bindTenant, closeTenantPools, keepReferenceInStep, loadTenantRoutes, watchDeadMoves } from './move.ts';
import { transferRoutes } from './routes/transfer.ts';
import { runningHostTenantSql } from '../subdomain/index.ts';
import { lockTenantCreation, nextTenantId, oneTimePassword, provisionTenant, type OneTimePassword } from './service.ts';

/** Tenants (platform administrator only): creating one provisions it in the same transaction. */
export default defineModule(async (root, s) => {
  resourceRoutes(
    root,
    s,
    bindResource(tenantDef, tenant, {
      output: { adminAccount: { type: 'string' }, adminPassword: { type: 'string' } },
      // A new tenant's admin password is hashed before the transaction opens.
      prepareSave: async ({ id }) => (id ? undefined : { admin: await oneTimePassword() }),
      async beforeSave({ tx, input, existing }) {
        const domain = typeof input.domain === 'string' && input.domain ? input.domain.toLowerCase() : null;
        if (existing) {
          if (input.tenantId && input.tenantId !== existing.tenantId)
            throw badRequest(texts.platformFixed, [{ field: 'tenantId', message: texts.platformFixed }]);
          return { domain };
        }
        // Creations take turns, so concurrent ones never generate the same id (nor one a given id is taking).
        await lockTenantCreation(tx);
        // A removed tenant keeps its rows (soft delete): its id is never handed to a new tenant.
        if (input.tenantId) {
          const [used] = await tx
            .select({ id: tenant.id })
            .from(tenant)
            .where(and(eq(tenant.tenantId, String(input.tenantId)), eq(tenant.isDeleted, 1)))
            .limit(1);
          if (used) throw badRequest(texts.idUsedBefore, [{ field: 'tenantId', message: texts.idUsedBefore }]);
        }
        return { tenantId: input.tenantId || (await nextTenantId(tx)), domain };
      },
      async afterSave({ tx, auth, existing, row, state }) {
        if (existing) return;
        const tenantRow = { tenantId: String(row.tenantId), tenantName: String(row.tenantName) };
        // A tenant id taken before (by a removed tenant) starts without its predecessor's cached reads on any server.
        await bumpEpoch(tx, tenantRow.tenantId);
        return provisionTenant(tx, tenantRow, auth, s.now(), state.admin as OneTimePassword);
      },
      async beforeRemove({ rows }) {
        if (rows.some((r) => r.tenantId === PLATFORM_TENANT)) throw badRequest(texts.platformFixed);
      },
      prepare: {
        // The one-time password is hashed before the transaction: no connection waits on the CPU.
        'repair-admin': () => oneTimePassword(),
      },
      actions: {
        async 'repair-admin'({ tx, auth, rows, prepared }) {
          const { password, hash } = prepared as OneTimePassword;
          const tenantId = String(rows[0].tenantId);
          const repair = async (on: Db) => {
            const made = await repairAdmin(on, tenantId, auth, s.now(), hash);
            // Its roles' grants are cached on every server: they drop them at their next request.
            await bumpEpoch(on, tenantId);
            return made;
          };
          // A moved tenant's rows are written on its database, in a transaction of its own (docs/tenants.md
          // "Routing"); the others' in the platform's transaction, as a write into another tenant.
          const admin =
            databaseOfTenant(s.db, tenantId) !== s.db ? await withTenant(s.db, tenantId, repair) : await repair(tx);
          return {
            data: { tenantId, account: admin.account, password },
            after: () => revokeUserSessions(s, [admin.userId]),
          };
        },
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
  await root.register(transferRoutes, { s });
  // Which tenants live on a data source: read at start, and again at each live event of the tenant table.
  await loadTenantRoutes(s, null);
  const reload = (tenantId: string | null) =>
    void loadTenantRoutes(s, tenantId).catch((err: unknown) => root.log.error({ err }, 'tenant routes not reloaded'));
  s.liveMemory.tenantListeners.add(reload);
  // A move whose server died is settled by another (docs/tenants.md "A move that dies"); the data sources' reference
  // data follows the main database's (docs/tenants.md "Reference data on a data source").
  const stopWatch = watchDeadMoves(s, root.log);
  const reference = keepReferenceInStep(s, root.log);
  s.liveMemory.referenceListeners.add(reference.request);
  reference.request();
  root.addHook('onClose', async () => {
    s.liveMemory.tenantListeners.delete(reload);
    s.liveMemory.referenceListeners.delete(reference.request);
    stopWatch();
    reference.stop();
    await closeTenantPools(s);
  });

  // A tenant on its own database (docs/tenants.md "Moving a tenant"): platform administrator only (the route's config).
  app.route({
    ...fromContract(system.tenantDatasource, apiSchemas.system.tenantDatasource, tags),
    handler: async (req) => {
      const done = await bindTenant(s, req.body.tenantId, req.body.datasourceId || null, req.log);
      return ok(done, fill(texts.moved, { rows: done.rows, ms: done.ms }));
    },
  });

  /** Public: the login page asks which tenant serves this host name. Unknown host → data null, not an error. */
  app.route({
    ...fromContract(shell.tenantInfo, apiSchemas.shell.tenantInfo, tags),
    handler: async (req) => {
      const domain = req.query.domain.toLowerCase();
      if (!domain) return ok(null);
      // The tenant whose domain it is, else the one a running sub-domain's host belongs to (docs/subdomains.md "Full
      // domains across tenants"): one statement, so a public call takes one turn at the database (docs/server.md
      // "Embedded database").
      const [t] = await s.db
        .select({
          tenantId: tenant.tenantId,
          tenantName: tenant.tenantName,
          domain: tenant.domain,
          backgroundUrl: tenant.backgroundUrl,
        })
        .from(tenant)
        .where(
          and(
            or(eq(tenant.domain, domain), eq(tenant.tenantId, runningHostTenantSql(domain))),
            eq(tenant.isDeleted, 0),
            eq(tenant.status, 1),
          ),
        )
        .orderBy(sql`(${tenant.domain} = ${domain}) is true desc`)
        .limit(1);
      return ok(t ?? null);
    },
  });
});
