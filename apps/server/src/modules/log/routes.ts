import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { logApi, shell } from '@atrium/contract';
import { apiSchemas, logSchemas } from '@atrium/contract/schemas';
import { rawQuery } from '../../platform/crud.ts';
import { declared } from '../../platform/declared.ts';
import { fromContract } from '../../platform/contract-route.ts';
import { errorLog } from '../../db/schema/index.ts';
import { newId } from '../../db/ids.ts';
import { ok } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { readTenant, withTenant } from '../../platform/tenant-db.ts';
import { logTexts } from './messages.ts';
import { auditDetail, auditPage, errorDetail, errorPage } from './viewer.ts';

/**
 * POST /api/blade-log/error-logs: the console's local error log, sent by the user from the error-log dialog; and the
 * viewers of the audit rows and of the uploaded error log (docs/server.md "Log viewers"), services in viewer.ts.
 */
export function logRoutes(root: FastifyInstance, s: Services) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.route({
    ...fromContract(shell.errorLogs, apiSchemas.shell.errorLogs, ['log']),
    handler: async (req) => {
      const auth = requireAuth(req);
      const list = Array.isArray(req.body) ? req.body : req.body.logs;
      if (list.length) {
        await withTenant(s.db, auth.tenantId, (tx) =>
          tx.insert(errorLog).values(
            list.map((e) => ({
              id: newId(),
              tenantId: auth.tenantId,
              userId: auth.userId,
              type: e.type,
              url: e.url ?? null,
              message: [e.message, e.info].filter(Boolean).join('\n') || null,
              stack: e.stack ?? null,
              clientTime: e.time ?? null,
              userAgent: req.headers['user-agent']?.slice(0, 500) ?? null,
              requestId: req.id,
              createTime: s.now(),
            })),
          ),
        );
      }
      return ok(list.length, logTexts.sent);
    },
  });

  const tags = ['log'];
  app.route({
    ...declared(logApi.auditList, logSchemas.auditList, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      return ok(await readTenant(s.db, auth.tenantId, (tx) => auditPage(tx, auth.tenantId, rawQuery(req))));
    },
  });
  app.route({
    ...declared(logApi.auditDetail, logSchemas.auditDetail, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      return ok(await readTenant(s.db, auth.tenantId, (tx) => auditDetail(tx, auth.tenantId, req.query.id)));
    },
  });
  app.route({
    ...declared(logApi.errorList, logSchemas.errorList, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      return ok(await readTenant(s.db, auth.tenantId, (tx) => errorPage(tx, auth.tenantId, rawQuery(req))));
    },
  });
  app.route({
    ...declared(logApi.errorDetail, logSchemas.errorDetail, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      return ok(await readTenant(s.db, auth.tenantId, (tx) => errorDetail(tx, auth.tenantId, req.query.id)));
    },
  });
}
