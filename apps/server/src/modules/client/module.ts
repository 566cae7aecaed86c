import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  encodeMsg,
  fill,
  messages,
  passwordPolicyError,
  validateCreditCode,
  validateIdCard,
  type Msg,
} from '@atrium/contract';
import { clientinfo as def, CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { user } from '../../db/schema/index.ts';
import { idArray, idParam, writeAudit, type Row } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { regionPrefix } from '../../platform/paging.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { hashPassword, md5Hex } from '../../platform/password.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { FixedWindowLimiter } from '../../platform/rate-limit.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import {
  approvalTable,
  approvalTexts,
  decideApproval,
  openApproval,
  registerApprovalEffect,
  withdrawPending,
} from '../approval/index.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import { isBlocked } from '../blacklist/index.ts';
import { enqueueEmail, outbox } from '../outbox/index.ts';
import { liveByCodes } from '../region/index.ts';
import { storeUpload } from '../resource/index.ts';
import { clientTexts as texts } from './messages.ts';
import { sanitizeHtml } from './sanitize.ts';
import {
  checkCode,
  clientByPhone,
  clientInUse,
  decideClient,
  publicTenant,
  sendCode,
  setAccountStatus,
  spendTicket,
} from './service.ts';
import { clientInfo, clientTrack } from './table.ts';

const tags = ['clientInfo'];
/** Public calls of the registration page per client address and minute. */
export const PUBLIC_PER_MINUTE = 60;
/** The largest licence image the public page takes. */
export const LICENCE_MAX_BYTES = 5 * 1024 * 1024;
const PHONE = /^1[3-9]\d{9}$/;
const field = (name: string, m: Msg) => badRequest(m, [{ field: name, message: m }]);

/** The form's checks beyond the definition's: credit code, ID card, a live region, blocked phone or email domain. */
async function checkForm(tx: Db, input: Record<string, unknown>, existing: Row | null) {
  const value = (k: string) => (input[k] !== undefined ? input[k] : existing?.[k]);
  const credit = validateCreditCode(value('creditCode') as string);
  if (credit) throw field('creditCode', credit);
  const idCard = value('contactIdCard') as string | null | undefined;
  if (idCard) {
    const bad = validateIdCard(idCard);
    if (bad) throw field('contactIdCard', bad);
  }
  const region = String(value('regionCode') ?? '');
  if (!(await liveByCodes(tx, [region])).has(region)) throw field('regionCode', texts.regionUnknown);
  return { creditCode: String(value('creditCode')).trim().toUpperCase() };
}

/**
 * A blocked phone, email domain (or, on the public page, address) is refused with a message that does not name the
 * list. Before the transaction: the blacklist is a cached read (docs/system-api.md "Blacklist").
 */
async function refuseBlocked(s: Services, tenantId: string, input: Record<string, unknown>, ip?: string) {
  const publicCall = ip !== undefined;
  if (await isBlocked(s, tenantId, 1, input.operatorTel as string, { publicCall }))
    throw field('operatorTel', texts.cannotSend);
  if (await isBlocked(s, tenantId, 4, input.email as string | null, { publicCall }))
    throw field('email', texts.cannotSend);
  if (ip !== undefined && (await isBlocked(s, tenantId, 2, ip))) throw badRequest(texts.cannotSend);
}

/** 客户信息 (docs/clients.md): staff screens, the public registration, the review and the client's account. */
export default defineModule((root, s) => {
  const binding = bindResource(def, clientInfo, {
    // A client account's "own client" is the record itself.
    scope: { owner: clientInfo.createUser, dept: clientInfo.createDept, client: clientInfo.id },
    // Added or moved only inside the caller's data scope (the same check as devices', platform/crud.ts): a region
    // admin enters clients of its region and below.
    outsideScope: texts.outsideScope,
    listParams: {
      // A region and everything below it.
      regionCode: (v) => regionPrefix(clientInfo.regionCode, v),
    },
    prepareSave: ({ auth, input }) => refuseBlocked(s, auth.tenantId, input as Record<string, unknown>),
    async beforeSave({ tx, input, existing }) {
      const checked = await checkForm(tx, input, existing);
      if (!existing) return { ...checked, status: CLIENT_STATUS.pending, source: 2 };
      // A rejected client corrected by staff goes back to review.
      if (existing.status === CLIENT_STATUS.rejected) return { ...checked, status: CLIENT_STATUS.pending };
      return checked;
    },
    async afterSave({ tx, auth, row, existing }) {
      if (existing && existing.status !== CLIENT_STATUS.rejected) return;
      await openApproval(tx, auth.tenantId, applicationOf(row, auth.userId), s.now());
    },
    async beforeRemove(tx, _ids, auth, rows) {
      const now = s.now();
      for (const c of rows) {
        const used = await clientInUse(tx, auth.tenantId, String(c.id));
        if (used)
          throw badRequest({
            zh: fill(texts.inUse, { what: used.zh }).zh,
            en: fill(texts.inUse, { what: used.en }).en,
          });
        await withdrawPending(tx, auth.tenantId, 'client', String(c.id), now);
        if (c.accountUserId)
          await tx
            .update(user)
            .set({ isDeleted: 1, status: 0, updateTime: now, version: sql`${user.version} + 1` })
            .where(and(eq(user.tenantId, auth.tenantId), eq(user.id, String(c.accountUserId))));
      }
    },
    async afterRemove(_auth, ids) {
      void ids;
    },
    actions: {
      async disable({ tx, auth, rows }) {
        for (const c of rows) await setAccountStatus(tx, auth.tenantId, c as never, 0, s.now());
        const accounts = rows.map((c) => c.accountUserId).filter((x): x is string => !!x);
        return { after: () => revokeUserSessions(s, accounts.map(String)) };
      },
      async enable({ tx, auth, rows }) {
        for (const c of rows) await setAccountStatus(tx, auth.tenantId, c as never, 1, s.now());
      },
    },
  });
  const svc = resourceRoutes(root, s, binding);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const labels = binding.spec.labels;

  registerApprovalEffect('client', (tx, auth, approval, d) =>
    decideClient(s, tx, auth, String(approval.referId), d.pass, d.opinion),
  );

  // ——— Staff calls ———

  /** Clients visible to the caller (tenant + `scope`, read before the transaction), locked for a write. */
  async function visible(tx: Db, auth: AuthContext, ids: string[], scope: SQL | undefined, lock = false) {
    const q = tx
      .select()
      .from(clientInfo)
      .where(
        and(eq(clientInfo.tenantId, auth.tenantId), eq(clientInfo.isDeleted, 0), inArray(clientInfo.id, ids), scope),
      );
    const rows = lock ? await q.for('update') : await q;
    if (rows.length !== new Set(ids).size) throw notFound();
    return rows;
  }

  // The review queue: clients waiting for a decision.
  app.get(
    `${def.base}/clientInfoVerify`,
    { config: { permission: 'clientinfo', labels }, schema: { tags } },
    async (req) =>
      ok(
        await svc.list(
          requireAuth(req),
          req.query as Record<string, unknown>,
          eq(clientInfo.status, CLIENT_STATUS.pending),
        ),
      ),
  );
  // Clients in the caller's regions (the data scope does it): the same page.
  app.get(
    `${def.base}/clientInfoManageList`,
    { config: { permission: 'clientinfo', labels }, schema: { tags } },
    async (req) => ok(await svc.list(requireAuth(req), req.query as Record<string, unknown>)),
  );
  // Id and name of approved clients, for pickers (devices, sub-domains).
  app.get(
    `${def.base}/clientList`,
    {
      config: { permission: ['clientinfo', 'subdomain_list', 'cameradevice'], labels },
      schema: { tags, querystring: z.object({ clientName: z.string().max(100).optional() }) },
    },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const name = req.query.clientName?.trim();
      const rows = await withTenant(s.db, auth.tenantId, (tx) =>
        tx
          .select({ id: clientInfo.id, clientName: clientInfo.clientName, regionCode: clientInfo.regionCode })
          .from(clientInfo)
          .where(
            and(
              eq(clientInfo.tenantId, auth.tenantId),
              eq(clientInfo.isDeleted, 0),
              eq(clientInfo.status, CLIENT_STATUS.approved),
              name ? sql`${clientInfo.clientName} like ${`%${name.replace(/[\\%_]/g, '\\$&')}%`}` : undefined,
              scope,
            ),
          )
          .orderBy(asc(clientInfo.clientName))
          .limit(200),
      );
      return ok(rows);
    },
  );

  // The spec's removal by one id: the same rules as remove.
  app.post(
    `${def.base}/delclientInfo`,
    { config: { permission: 'clientinfo_delete', labels }, schema: { tags, querystring: z.object({ id: idParam }) } },
    async (req) => {
      await svc.remove(requireAuth(req), [req.query.id], req.id);
      return ok(true, messages.deleted);
    },
  );

  // Decides the pending reviews of clients: the same decision as the approval screen's. The ids come in the body or,
  // like the other actions, as the `ids` query parameter.
  app.post(
    `${def.base}/approve`,
    {
      config: { permission: ['clientinfo_approve', 'approval_approve'], labels },
      schema: {
        tags,
        querystring: z.object({ ids: idArray.optional() }),
        body: z
          .object({
            ids: idArray.optional(),
            pass: z.coerce.boolean().default(false),
            opinion: z.string().max(500).nullish(),
          })
          .default({ pass: false }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const { pass, opinion } = req.body;
      const ids = [...new Set([...(req.body.ids ?? []), ...(req.query.ids ?? [])])];
      if (!ids.length) throw field('ids', texts.chooseClients);
      const scope = await svc.scopeOf(auth);
      await withTenant(s.db, auth.tenantId, async (tx) => {
        const clients = await visible(tx, auth, ids, scope);
        for (const c of clients) {
          const [a] = await tx
            .select()
            .from(approvalTable)
            .where(
              and(
                eq(approvalTable.tenantId, auth.tenantId),
                eq(approvalTable.referType, 'client'),
                eq(approvalTable.referId, c.id),
                eq(approvalTable.status, 0),
                eq(approvalTable.isDeleted, 0),
              ),
            )
            .for('update');
          if (!a) throw new AppError(409, texts.notPending);
          await decideApproval(tx, auth, a, { pass, opinion: opinion ?? null, requestId: req.id }, s.now());
          await writeAudit(
            s,
            tx,
            auth,
            req.id,
            'approval',
            pass ? 'approve' : 'reject',
            a.id,
            { status: 0 },
            {
              status: pass ? 1 : 2,
              opinion: opinion ?? null,
            },
          );
        }
      });
      return ok(true, pass ? approvalTexts.approved : approvalTexts.rejected);
    },
  );

  // The client account's new password. POST with a JSON body (the spec sends GET query parameters): a password never
  // lands in an access log (docs/clients.md).
  app.post(
    `${def.base}/updatePwd`,
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
        const [c] = await visible(tx, auth, [clientInfoId], scope, true);
        if (!c.accountUserId) throw badRequest(texts.noAccount);
        const problem = passwordPolicyError(pwd, String(c.appClientAccount ?? ''));
        if (problem) throw field('pwd', problem);
        await tx
          .update(user)
          .set({ password: hash, mustChangePassword: 1, updateTime: s.now(), version: sql`${user.version} + 1` })
          .where(and(eq(user.tenantId, auth.tenantId), eq(user.id, c.accountUserId)));
        await writeAudit(s, tx, auth, req.id, def.code, 'update-password', c.id, null, { account: c.appClientAccount });
        return c.accountUserId;
      });
      await revokeUserSessions(s, [accountId]);
      return ok(true, texts.passwordChanged);
    },
  );

  // One queued email per client, each with its own result in the outbox; a track record for each.
  app.post(
    `${def.base}/sendEmail`,
    {
      config: { permission: 'clientinfo_email', labels },
      schema: {
        tags,
        body: z.object({
          clientIds: idArray.pipe(z.array(z.string()).min(1, encodeMsg(texts.chooseClients))),
          subject: z.string().trim().min(1, encodeMsg(texts.subjectRequired)).max(200),
          content: z.string().trim().min(1, encodeMsg(texts.bodyRequired)).max(100_000),
          attachIds: idArray.optional(),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const { clientIds, subject, content, attachIds } = req.body;
      const html = sanitizeHtml(content);
      const scope = await svc.scopeOf(auth);
      const queued = await withTenant(s.db, auth.tenantId, async (tx) => {
        const clients = await visible(tx, auth, clientIds, scope);
        const out: { clientId: string; outboxId: string }[] = [];
        for (const c of clients) {
          if (!c.email) throw badRequest(fill(texts.noEmail, { name: c.clientName }));
          const outboxId = await enqueueEmail(tx, {
            tenantId: auth.tenantId,
            to: c.email,
            subject,
            html,
            attachIds: attachIds ?? [],
            refType: 'client',
            refId: c.id,
            userId: auth.userId,
          });
          await tx.insert(clientTrack).values({
            id: newId(),
            tenantId: auth.tenantId,
            clientId: c.id,
            trackType: 3,
            content: subject,
            trackTime: s.now(),
            outboxId,
            trackerName: auth.account.slice(0, 50),
            createUser: auth.userId,
            createTime: s.now(),
            updateTime: s.now(),
          });
          out.push({ clientId: c.id, outboxId });
        }
        return out;
      });
      return ok(queued, texts.emailQueued);
    },
  );

  // A follow-up record.
  app.post(
    `${def.base}/customerTrack`,
    {
      config: { permission: ['clienttrack_add', 'clientinfo_edit'], labels },
      schema: {
        tags,
        body: z.object({
          clientId: idParam,
          trackType: z.coerce
            .number()
            .int()
            .refine((v) => [1, 2, 3, 4].includes(v), encodeMsg(texts.trackTypeBad)),
          content: z.string().trim().min(1, encodeMsg(texts.contentRequired)).max(2000),
          trackTime: z.coerce.date().optional(),
          nextTrackTime: z.coerce.date().nullish(),
        }),
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const b = req.body;
      const scope = await svc.scopeOf(auth);
      const id = await withTenant(s.db, auth.tenantId, async (tx) => {
        await visible(tx, auth, [b.clientId], scope);
        const id = newId();
        await tx.insert(clientTrack).values({
          id,
          tenantId: auth.tenantId,
          clientId: b.clientId,
          trackType: b.trackType,
          content: b.content,
          trackTime: b.trackTime ?? s.now(),
          nextTrackTime: b.nextTrackTime ?? null,
          trackerName: auth.account.slice(0, 50),
          createUser: auth.userId,
          createTime: s.now(),
          updateTime: s.now(),
        });
        return id;
      });
      return ok({ id }, messages.added);
    },
  );

  // A client's follow-ups, newest first; an email's record carries its delivery state from the outbox.
  app.get(
    `${def.base}/clientTrackRecord`,
    {
      config: { permission: ['clientinfo', 'clienttrack'], labels },
      schema: { tags, querystring: z.object({ clientId: idParam }) },
    },
    async (req) => {
      const auth = requireAuth(req);
      const scope = await svc.scopeOf(auth);
      const rows = await withTenant(s.db, auth.tenantId, async (tx) => {
        await visible(tx, auth, [req.query.clientId], scope);
        return tx
          .select({
            id: clientTrack.id,
            clientId: clientTrack.clientId,
            trackType: clientTrack.trackType,
            content: clientTrack.content,
            trackTime: clientTrack.trackTime,
            nextTrackTime: clientTrack.nextTrackTime,
            trackerName: clientTrack.trackerName,
            outboxId: clientTrack.outboxId,
            emailStatus: outbox.status,
            emailError: outbox.lastError,
          })
          .from(clientTrack)
          .leftJoin(outbox, and(eq(outbox.id, clientTrack.outboxId), eq(outbox.tenantId, auth.tenantId)))
          .where(
            and(
              eq(clientTrack.tenantId, auth.tenantId),
              eq(clientTrack.clientId, req.query.clientId),
              eq(clientTrack.isDeleted, 0),
            ),
          )
          .orderBy(desc(clientTrack.trackTime), desc(clientTrack.id));
      });
      return ok(rows);
    },
  );

  // ——— Public calls: the registration page (no login; tenant from Tenant-Id or the host) ———

  const phoneQuery = z.object({ operatorTel: z.string().trim().regex(PHONE, encodeMsg(texts.phoneBad)) });
  const codeType = z.coerce
    .number()
    .int()
    .refine((v) => v === 1 || v === 2, encodeMsg(texts.typeBad));
  const userAgent = z.string().trim().min(1, encodeMsg(texts.agentRequired)).max(500);
  const pub = { auth: 'none' as const };
  // Per client address, every public call of this page together: 60 a minute, then 429 (per process,
  // docs/clients.md "Registration"); the send limits of codes are durable on top of it.
  const limiter = new FixedWindowLimiter(PUBLIC_PER_MINUTE, 60_000);
  // A hook of those routes only (added as each is registered): no other request pays for it.
  const limit = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const hit = limiter.hit(req.ip, Date.now());
    if (hit.allowed) return done();
    reply.header('retry-after', String(Math.ceil(hit.retryAfterMs / 1000)));
    done(new AppError(429, texts.ipLimit));
  };
  root.addHook('onRoute', (r) => {
    if (!r.url.startsWith(`${def.base}/`) || r.config?.auth !== 'none') return;
    r.onRequest = [...(r.onRequest ? [r.onRequest].flat() : []), limit];
  });

  // Whether a phone can register: free, registered or blocked — nothing more.
  app.get(`${def.base}/verify`, { config: pub, schema: { tags, querystring: phoneQuery } }, async (req) => {
    const t = await publicTenant(s, req);
    const phone = req.query.operatorTel;
    const state = (await isBlocked(s, t.tenantId, 1, phone, { publicCall: true }))
      ? 'blocked'
      : await withTenant(s.db, t.tenantId, async (tx) => {
          const c = await clientByPhone(tx, t.tenantId, phone);
          return c && c.status !== CLIENT_STATUS.rejected ? 'registered' : 'free';
        });
    return ok({ state });
  });

  // Sends a 6-digit code (1 register, 2 reset password); the limits answer 429.
  app.get(
    `${def.base}/verification`,
    {
      config: pub,
      schema: { tags, querystring: phoneQuery.extend({ type: codeType, userAgent }) },
    },
    async (req) => {
      const t = await publicTenant(s, req);
      const { operatorTel: phone, type } = req.query;
      if (
        (await isBlocked(s, t.tenantId, 1, phone, { publicCall: true })) ||
        (await isBlocked(s, t.tenantId, 2, req.ip))
      )
        throw badRequest(texts.cannotSend);
      await withTenant(s.db, t.tenantId, async (tx) => {
        const c = await clientByPhone(tx, t.tenantId, phone);
        if (type === 1 && c && c.status !== CLIENT_STATUS.rejected) throw badRequest(texts.alreadyRegistered);
        if (type === 2 && !(c?.accountUserId && c.status === CLIENT_STATUS.approved))
          throw badRequest(texts.notRegistered);
        await sendCode(s, tx, t, { phone, type, userAgent: req.query.userAgent, ip: req.ip, lang: req.lang });
      });
      return ok(true, texts.codeSent);
    },
  );

  // Checks a code: right → a one-use ticket (15 minutes) for register or the password reset.
  app.get(
    `${def.base}/verificat`,
    {
      config: pub,
      schema: {
        tags,
        querystring: phoneQuery.extend({
          type: codeType,
          userAgent,
          verificationCode: z
            .string()
            .trim()
            .regex(/^\d{6}$/, encodeMsg(texts.codeBad)),
        }),
      },
    },
    async (req) => {
      const t = await publicTenant(s, req);
      const q = req.query;
      const result = await withTenant(s.db, t.tenantId, (tx) =>
        checkCode(s, tx, t.tenantId, {
          phone: q.operatorTel,
          type: q.type,
          userAgent: q.userAgent,
          code: q.verificationCode,
        }),
      );
      // The wrong try is counted (its transaction committed) before the refusal is answered.
      if ('wrong' in result) throw badRequest(result.burned ? texts.codeGone : texts.codeWrong);
      return ok({ ticket: result.ticket });
    },
  );

  // The registration: the form + the ticket of a type-1 code → a client pending review and its approval.
  const registerBody = binding.spec.body.extend({
    password: z.string().min(1, encodeMsg(texts.passwordRequired)).max(64),
    ticket: z.string().trim().min(1, encodeMsg(texts.ticketBad)).max(100),
  });
  app.post(`${def.base}/register`, { config: pub, schema: { tags, body: registerBody } }, async (req) => {
    const t = await publicTenant(s, req);
    const body = req.body as Record<string, unknown> & { password: string; ticket: string; operatorTel: string };
    const account = String(body.appClientAccount || body.operatorTel);
    const problem = passwordPolicyError(body.password, account);
    if (problem) throw field('password', problem);
    await refuseBlocked(s, t.tenantId, body, req.ip);
    const hash = await hashPassword(md5Hex(body.password));
    const now = s.now();
    await withTenant(s.db, t.tenantId, async (tx) => {
      await spendTicket(s, tx, t.tenantId, body.operatorTel, 1, body.ticket);
      const before = await clientByPhone(tx, t.tenantId, body.operatorTel);
      if (before && before.status !== CLIENT_STATUS.rejected) throw badRequest(texts.alreadyRegistered);
      const checked = await checkForm(tx, body, null);
      const values: Record<string, unknown> = {};
      for (const k of Object.keys(def.fields)) {
        const f = def.fields[k as keyof typeof def.fields];
        if (!('readOnly' in f && f.readOnly) && body[k] !== undefined) values[k] = body[k];
      }
      const row = {
        ...values,
        ...checked,
        status: CLIENT_STATUS.pending,
        source: 1,
        pendingPassword: hash,
        updateTime: now,
      };
      let id: string;
      if (before) {
        id = before.id;
        await tx
          .update(clientInfo)
          .set({ ...row, version: sql`${clientInfo.version} + 1` } as never)
          .where(eq(clientInfo.id, before.id));
      } else {
        id = newId();
        await tx.insert(clientInfo).values({ ...row, id, tenantId: t.tenantId, createTime: now } as never);
      }
      const [c] = await tx.select().from(clientInfo).where(eq(clientInfo.id, id));
      await openApproval(tx, t.tenantId, applicationOf(c as Row, null), now);
    });
    return ok(true, texts.registered);
  });

  // The licence image of a registration, before any login: images only (jpg, png, webp), at most 5 MB, within the
  // per-address limit of the public calls; stored as an attachment of the tenant (docs/clients.md "Registration").
  app.post(`${def.base}/licence`, { config: pub, schema: { tags } }, async (req) => {
    const t = await publicTenant(s, req);
    const stored = await storeUpload(s, req, {
      tenantId: t.tenantId,
      userId: null,
      maxBytes: LICENCE_MAX_BYTES,
      only: ['jpg', 'png', 'webp'],
    });
    return ok({ link: stored.link, attachId: stored.attachId }, texts.licenceUploaded);
  });

  // The review state of a phone's latest application — no personal data.
  app.get(`${def.base}/reviewed`, { config: pub, schema: { tags, querystring: phoneQuery } }, async (req) => {
    const t = await publicTenant(s, req);
    const c = await withTenant(s.db, t.tenantId, (tx) => clientByPhone(tx, t.tenantId, req.query.operatorTel));
    const status = !c
      ? 'none'
      : c.status === CLIENT_STATUS.pending
        ? 'pending'
        : c.status === CLIENT_STATUS.rejected
          ? 'rejected'
          : 'approved';
    return ok({ status });
  });

  // A client sets a new password with the ticket of a type-2 code ("forgot password").
  app.post(
    `${def.base}/resetPassword`,
    {
      config: pub,
      schema: {
        tags,
        body: z.object({
          operatorTel: z.string().trim().regex(PHONE, encodeMsg(texts.phoneBad)),
          ticket: z.string().trim().min(1, encodeMsg(texts.ticketBad)).max(100),
          password: z.string().min(1, encodeMsg(texts.passwordRequired)).max(64),
        }),
      },
    },
    async (req) => {
      const t = await publicTenant(s, req);
      const { operatorTel, ticket, password } = req.body;
      const hash = await hashPassword(md5Hex(password));
      const userId = await withTenant(s.db, t.tenantId, async (tx) => {
        await spendTicket(s, tx, t.tenantId, operatorTel, 2, ticket);
        const c = await clientByPhone(tx, t.tenantId, operatorTel);
        if (!c?.accountUserId || c.status !== CLIENT_STATUS.approved) throw badRequest(texts.notRegistered);
        const problem = passwordPolicyError(password, String(c.appClientAccount ?? ''));
        if (problem) throw field('password', problem);
        await tx
          .update(user)
          .set({ password: hash, mustChangePassword: 0, updateTime: s.now(), version: sql`${user.version} + 1` })
          .where(and(eq(user.tenantId, t.tenantId), eq(user.id, c.accountUserId)));
        return c.accountUserId;
      });
      await revokeUserSessions(s, [userId]);
      return ok(true, texts.passwordReset);
    },
  );
});

/** The approval a client's registration opens. */
function applicationOf(c: Row, userId: string | null) {
  return {
    referType: 'client',
    referId: String(c.id),
    title: String(c.clientName),
    applicantName: (c.contactName as string | null) ?? null,
    applicantPhone: (c.operatorTel as string | null) ?? null,
    regionCode: (c.regionCode as string | null) ?? null,
    userId,
  };
}
