import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { encodeMsg, messages, type Msg } from '@atrium/contract';
import { clientinfo as def, CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import { idArray, idParam, writeAudit, type CrudService } from '../../../platform/crud.ts';
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

const approveSchema = {
  tags,
  querystring: z.object({ ids: idArray.optional() }),
  body: z
    .object({
      ids: idArray.optional(),
      pass: z.coerce.boolean().default(false),
      opinion: z.string().max(500).nullish(),
    })
    .default({ pass: false }),
};

const emailBody = z.object({
  clientIds: idArray.pipe(z.array(z.string()).min(1, encodeMsg(texts.chooseClients))),
  subject: z.string().trim().min(1, encodeMsg(texts.subjectRequired)).max(200),
  content: z.string().trim().min(1, encodeMsg(texts.bodyRequired)).max(100_000),
  attachIds: idArray.optional(),
});

const trackBody = z.object({
  clientId: idParam,
  trackType: z.coerce
    .number()
    .int()
    .refine((v) => [1, 2, 3, 4].includes(v), encodeMsg(texts.trackTypeBad)),
  content: z.string().trim().min(1, encodeMsg(texts.contentRequired)).max(2000),
  trackTime: z.coerce.date().optional(),
  nextTrackTime: z.coerce.date().nullish(),
});

type StaffOptions = { s: Services; svc: CrudService; labels?: Record<string, Msg> };

/**
 * The staff screens' own calls on clients (docs/clients.md), under the definition's base: the review queue, pickers,
 * removal by id and the review decision. Each reads within the caller's data scope.
 */
export const staffRoutes: FastifyPluginAsync<StaffOptions> = async (plain, { s, svc, labels }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const view = { permission: 'clientinfo', labels };

  // The review queue: clients waiting for a decision.
  app.get('/clientInfoVerify', { config: view, schema: { tags } }, async (req) =>
    ok(
      await svc.list(
        requireAuth(req),
        req.query as Record<string, unknown>,
        eq(clientInfo.status, CLIENT_STATUS.pending),
      ),
    ),
  );
  // Clients in the caller's regions (the data scope does it): the same page.
  app.get('/clientInfoManageList', { config: view, schema: { tags } }, async (req) =>
    ok(await svc.list(requireAuth(req), req.query as Record<string, unknown>)),
  );

  // Id and name of approved clients, for pickers (devices, sub-domains).
  app.get(
    '/clientList',
    {
      config: { permission: ['clientinfo', 'subdomain_list', 'cameradevice'], labels },
      schema: { tags, querystring: z.object({ clientName: z.string().max(100).optional() }) },
    },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const name = req.query.clientName?.trim();
      return ok(await withTenant(s.db, auth.tenantId, (tx) => clientOptions(tx, auth.tenantId, name, scope)));
    },
  );

  // The spec's removal by one id: the same rules as remove.
  app.post(
    '/delclientInfo',
    { config: { permission: 'clientinfo_delete', labels }, schema: { tags, querystring: z.object({ id: idParam }) } },
    async (req) => {
      await svc.remove(requireAuth(req), [req.query.id], req.id);
      return ok(true, messages.deleted);
    },
  );

  // Decides the pending reviews of clients: the same decision as the approval screen's. The ids come in the body or,
  // like the other actions, as the `ids` query parameter.
  app.post(
    '/approve',
    { config: { permission: ['clientinfo_approve', 'approval_approve'], labels }, schema: approveSchema },
    async (req) => {
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
  );
};

/** The client account's password, emails and follow-ups, under the definition's base, within the caller's data scope. */
export const contactRoutes: FastifyPluginAsync<StaffOptions> = async (plain, { s, svc, labels }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // The client account's new password. POST with a JSON body (the spec sends GET query parameters): a password never
  // lands in an access log (docs/clients.md).
  app.post(
    '/updatePwd',
    {
      config: { permission: 'clientinfo_edit', labels },
      schema: {
        tags,
        body: z.object({ clientInfoId: idParam, pwd: z.string().min(1, encodeMsg(texts.passwordRequired)).max(64) }),
      },
    },
    async (req) => {
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
  );

  // One queued email per client, each with its own result in the outbox; a track record for each.
  app.post(
    '/sendEmail',
    { config: { permission: 'clientinfo_email', labels }, schema: { tags, body: emailBody } },
    async (req) => {
      const auth = requireAuth(req);
      const { clientIds, subject, content, attachIds } = req.body;
      const html = sanitizeHtml(content);
      const scope = await svc.scopeOf(auth);
      const by = { tenantId: auth.tenantId, userId: auth.userId, account: auth.account, now: s.now() };
      const queued = await withTenant(s.db, auth.tenantId, async (tx) =>
        queueClientEmails(tx, by, await visibleClients(tx, auth.tenantId, clientIds, scope), {
          subject,
          html,
          attachIds: attachIds ?? [],
        }),
      );
      return ok(queued, texts.emailQueued);
    },
  );

  // A follow-up record.
  app.post(
    '/customerTrack',
    { config: { permission: ['clienttrack_add', 'clientinfo_edit'], labels }, schema: { tags, body: trackBody } },
    async (req) => {
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
  );

  // A client's follow-ups, newest first; an email's record carries its delivery state from the outbox.
  app.get(
    '/clientTrackRecord',
    {
      config: { permission: ['clientinfo', 'clienttrack'], labels },
      schema: { tags, querystring: z.object({ clientId: idParam }) },
    },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const rows = await withTenant(s.db, auth.tenantId, async (tx) => {
        await visibleClients(tx, auth.tenantId, [req.query.clientId], scope);
        return trackRecords(tx, auth.tenantId, req.query.clientId);
      });
      return ok(rows);
    },
  );
};
