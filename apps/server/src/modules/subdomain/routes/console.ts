import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { business as api, type Msg } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { subdomain_list as def, SUBDOMAIN_STATUS } from '@atrium/contract/resources/subdomain/subdomain_list';
import type { CrudService, Row } from '../../../platform/crud.ts';
import { declared } from '../../../platform/declared.ts';
import { ok } from '../../../platform/envelope.ts';
import { AppError, badRequest, langOf, render } from '../../../platform/errors.ts';
import { requireAuth } from '../../../platform/guard.ts';
import type { Services } from '../../../platform/services.ts';
import { readTenant, withTenant } from '../../../platform/tenant-db.ts';
import { clientScopeSql } from '../../client/index.ts';
import { applySubDomain } from '../application.ts';
import { subdomainTexts as texts } from '../messages.ts';
import { checkLegal, latestApplication } from '../service.ts';
import { subDomain } from '../table.ts';

const tags = ['subdomain'];
const schemas = apiSchemas.business;

type ConsoleOptions = {
  s: Services;
  svc: CrudService;
  labels?: Record<string, Msg>;
  present: (row: Row) => Record<string, unknown>;
};

/**
 * The console's calls on sub-domains beyond the definition's (docs/subdomains.md), under its base: the spec's list,
 * the legality check, the application and the state of an application. Each within the caller's data scope.
 */
export const consoleRoutes: FastifyPluginAsync<ConsoleOptions> = async (plain, { s, svc, labels, present }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const prefix = plain.prefix;

  // The spec's list: the same page as pagelist (a resource route: docs/resources.md).
  app.get('/list', { config: { permission: def.code, labels }, schema: { tags } }, async (req) =>
    ok(await svc.list(requireAuth(req), req.query as Record<string, unknown>)),
  );

  // {legal, reason}: the reason in the request's language (the form shows it under the name as it is typed). Called as
  // the name is typed, so it is a read like a list (docs/subdomains.md "Legal names"): the live-state check and the
  // tenant context go with its first statement, and its commit is not waited for.
  app.route({
    ...declared(api.checkSubDomainLegal, schemas.checkSubDomainLegal, tags, { prefix, labels, liveInRead: true }),
    handler: async (req) => {
      const auth = requireAuth(req);
      const lang = langOf(req.headers['accept-language']);
      const res = await readTenant(
        s.db,
        auth.tenantId,
        (tx) => checkLegal(s, tx, auth.tenantId, req.query.subDomain),
        auth.liveCheck,
      );
      return ok({
        legal: res.legal,
        reason: render(res.reason, lang),
        subDomain: res.label,
        fullDomain: res.fullDomain,
      });
    },
  });

  // An application: state 0 and a pending approval. A client account applies for its own client; staff name the
  // client by its account, within the subdomain_list data scope applied to the clients table.
  app.route({
    ...declared(api.submitSubDomainApply, schemas.submitSubDomainApply, tags, { prefix, labels }),
    handler: async (req) => {
      const auth = requireAuth(req);
      const account = req.query.appClientAccount || undefined;
      if (!auth.clientInfoId && !account)
        throw badRequest(texts.accountRequired, [{ field: 'appClientAccount', message: texts.accountRequired }]);
      const scope = auth.clientInfoId ? undefined : await clientScopeSql(s, auth, def.code);
      const call = { subDomain: req.query.subDomain, account, requestId: req.id };
      const row = await withTenant(s.db, auth.tenantId, (tx) => applySubDomain(s, tx, auth, call, scope));
      return ok(present(row), texts.applied);
    },
  });

  // The state of the latest application of a label (of one account, when named), within the caller's data scope.
  app.route({
    ...declared(api.checkSubDomainIsPassApproval, schemas.checkSubDomainIsPassApproval, tags, { prefix, labels }),
    handler: async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const given = req.query.appClientAccount || undefined;
      const row = await withTenant(s.db, auth.tenantId, (tx) =>
        latestApplication(
          tx,
          auth.tenantId,
          req.query.subDomain.trim().toLowerCase(),
          and(given ? eq(subDomain.appClientAccount, given) : undefined, scope),
        ),
      );
      if (!row) throw new AppError(404, texts.noApplication);
      const passed: number[] = [SUBDOMAIN_STATUS.approved, SUBDOMAIN_STATUS.running, SUBDOMAIN_STATUS.stopped];
      return ok({
        id: row.id,
        subDomain: row.subDomain,
        fullDomain: row.fullDomain,
        status: row.status,
        pass: passed.includes(row.status),
      });
    },
  });
};
