import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { business as api, messages, type Msg } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { clientinfo as def, CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import { declared } from '../../../platform/declared.ts';
import { writeAudit, type CrudService } from '../../../platform/crud.ts';
import { ok } from '../../../platform/envelope.ts';
import { badRequest } from '../../../platform/errors.ts';
import { requireAuth } from '../../../platform/guard.ts';
import { hashPassword, md5Hex } from '../../../platform/password.ts';
import type { Services } from '../../../platform/services.ts';
import { withTenant } from '../../../platform/tenant-db.ts';
import { approvalTexts } from '../../approval/index.ts';
import { revokeUserSessions } from '../../../platform/sessions.ts';
import { clientTexts as texts } from '../messages.ts';
import { sanitizeHtml } from '../sanitize.ts';
import {
  addTrack,
  clientOptions,
  decideReviews,
  queueClientEmails,
  setClientPassword,
  trackRecords,
  visibleClients,
} from '../service.ts';
import { clientInfo } from '../table.ts';

const tags = ['clientInfo'];
const schemas = apiSchemas.business;

type StaffOptions = { s: Services; svc: CrudService; labels?: Record<string, Msg> };

/**
 * The staff screens' own calls on clients (docs/clients.md), under the definition's base: the review queue, pickers,
 * removal by id and the review decision. Each reads within the caller's data scope.
 */
export const staffRoutes: FastifyPluginAsync<StaffOptions> = async (plain, { s, svc, labels }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const at = plain.prefix;

  // The review queue: clients waiting for a decision.
  app.route({
    ...declared(api.clientInfoVerify, schemas.clientInfoVerify, tags, { prefix: at, labels }),
    handler: async (req) =>
      ok(await svc.list(requireAuth(req), req.query, eq(clientInfo.status, CLIENT_STATUS.pending))),
  });
  // Clients in the caller's regions (the data scope does it): the same page.
  app.route({
    ...declared(api.clientInfoManageList, schemas.clientInfoManageList, tags, { prefix: at, labels }),
    handler: async (req) => ok(await svc.list(requireAuth(req), req.query)),
  });

  // Id and name of approved clients, for pickers (devices, sub-domains).
  app.route({
    ...declared(api.clientList, schemas.clientList, tags, { prefix: at, labels }),
    handler: async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const name = req.query.clientName?.trim();
      return ok(await withTenant(s.db, auth.tenantId, (tx) => clientOptions(tx, auth.tenantId, name, scope)));
    },
  });

  // The spec's removal by one id: the same rules as remove.
  app.route({
    ...declared(api.delClientInfo, schemas.delClientInfo, tags, { prefix: at, labels }),
    handler: async (req) => {
      await svc.remove(requireAuth(req), [req.query.id], req.id);
      return ok(true, messages.deleted);
    },
  });

  // Decides the pending reviews of clients: the same decision as the approval screen's. The ids come in the body or,
  // like the other actions, as the `ids` query parameter.
  app.route({
    ...declared(api.approveClients, schemas.approveClients, tags, { prefix: at, labels }),
    handler: async (req) => {
      const auth = requireAuth(req);
      const { pass, opinion } = req.body;
      const ids = [...new Set([...(req.body.ids ?? []), ...(req.query.ids ?? [])])];
      if (!ids.length) throw badRequest(texts.chooseClients, [{ field: 'ids', message: texts.chooseClients }]);
      const scope = await svc.scopeOf(auth);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const clients = await visibleClients(tx, auth.tenantId, ids, scope);
        await decideReviews(s, tx, auth, clients, { pass, opinion: opinion ?? null, requestId: req.id });
      });
      return ok(true, pass ? approvalTexts.approved : approvalTexts.rejected);
    },
  });
};

/** The client account's password, emails and follow-ups, under the definition's base, within the caller's data scope. */
export const contactRoutes: FastifyPluginAsync<StaffOptions> = async (plain, { s, svc, labels }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const at = plain.prefix;

  // The client account's new password. POST with a JSON body (the spec sends GET query parameters): a password never
  // lands in an access log (docs/clients.md).
  app.route({
    ...declared(api.updatePwd, schemas.updatePwd, tags, { prefix: at, labels }),
    handler: async (req) => {
      const auth = requireAuth(req);
      const { clientInfoId, pwd } = req.body;
      const hash = await hashPassword(md5Hex(pwd));
      const scope = await svc.scopeOf(auth);
      const accountId = await withTenant(s.db, auth.tenantId, async (tx) => {
        const [c] = await visibleClients(tx, auth.tenantId, [clientInfoId], scope, true);
        const id = await setClientPassword(tx, auth.tenantId, c, { plain: pwd, hash }, s.now());
        await writeAudit(s, tx, auth, req.id, def.code, 'update-password', c.id, null, { account: c.appClientAccount });
        return id;
      });
      await revokeUserSessions(s, [accountId]);
      return ok(true, texts.passwordChanged);
    },
  });

  // One queued email per client, each with its own result in the outbox; a track record for each.
  app.route({
    ...declared(api.sendEmail, schemas.sendEmail, tags, { prefix: at, labels }),
    handler: async (req) => {
      const auth = requireAuth(req);
      const { clientIds, subject, content, attachIds } = req.body;
      const html = sanitizeHtml(content);
      const scope = await svc.scopeOf(auth);
      const by = { tenantId: auth.tenantId, userId: auth.userId, account: auth.account, now: s.now() };
      const queued = await withTenant(s.db, auth.tenantId, async (tx) =>
        queueClientEmails(s, tx, by, await visibleClients(tx, auth.tenantId, clientIds, scope), {
          subject,
          html,
          attachIds: attachIds ?? [],
        }),
      );
      return ok(queued, texts.emailQueued);
    },
  });

  // A follow-up record.
  app.route({
    ...declared(api.customerTrack, schemas.customerTrack, tags, { prefix: at, labels }),
    handler: async (req) => {
      const auth = requireAuth(req);
      const b = req.body;
      const scope = await svc.scopeOf(auth);
      const now = s.now();
      const by = { tenantId: auth.tenantId, userId: auth.userId, account: auth.account, now };
      const id = await withTenant(s.db, auth.tenantId, async (tx) => {
        await visibleClients(tx, auth.tenantId, [b.clientId], scope);
        const track = { ...b, trackTime: b.trackTime ?? now, nextTrackTime: b.nextTrackTime ?? null };
        return addTrack(tx, by, track);
      });
      return ok({ id }, messages.added);
    },
  });

  // A client's follow-ups, newest first; an email's record carries its delivery state from the outbox.
  app.route({
    ...declared(api.clientTrackRecord, schemas.clientTrackRecord, tags, { prefix: at, labels }),
    handler: async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const rows = await withTenant(s.db, auth.tenantId, async (tx) => {
        await visibleClients(tx, auth.tenantId, [req.query.clientId], scope);
        return trackRecords(tx, auth.tenantId, req.query.clientId);
      });
      return ok(rows);
    },
  });
};
