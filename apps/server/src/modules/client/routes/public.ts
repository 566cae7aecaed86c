import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { business as api, passwordPolicyError } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { declared } from '../../../platform/declared.ts';
import { ok } from '../../../platform/envelope.ts';
import { badRequest } from '../../../platform/errors.ts';
import { hashPassword, md5Hex } from '../../../platform/password.ts';
import { perAddress } from '../../../platform/rate-limit.ts';
import type { Services } from '../../../platform/services.ts';
import { withTenant } from '../../../platform/tenant-db.ts';
import { revokeUserSessions } from '../../../platform/sessions.ts';
import { BLACK_TYPE, isBlocked } from '../../blacklist/index.ts';
import { storeUpload } from '../../resource/index.ts';
import { clientTexts as texts } from '../messages.ts';
import {
  checkCode,
  checkCodeRecipient,
  phoneState,
  publicTenant,
  refuseBlocked,
  registerClient,
  resetClientPassword,
  reviewState,
  sendCode,
} from '../service.ts';

const tags = ['clientInfo'];
const schemas = apiSchemas.business;
/** Public calls of the registration page per client address and minute. */
export const PUBLIC_PER_MINUTE = 60;
/** The largest licence image the public page takes. */
export const LICENCE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The public registration page (docs/clients.md "Registration"), under the definition's base: no login, the tenant
 * from Tenant-Id or the host; a limit per client address on every call of this plugin (its own hook: no other request
 * pays for it).
 */
export const publicRoutes: FastifyPluginAsync<{ s: Services; body: z.ZodObject }> = async (plain, { s, body }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  // 60 a minute, then 429 (per process, docs/clients.md "Registration"); the send limits of codes are durable on top.
  app.addHook('onRequest', app.rateLimit(perAddress(PUBLIC_PER_MINUTE, 60_000, texts.ipLimit)));
  const at = { prefix: plain.prefix };

  // Whether a phone can register: free, registered or blocked — nothing more.
  app.route({
    ...declared(api.verify, schemas.verify, tags, at),
    handler: async (req) => {
      const t = await publicTenant(s, req);
      const tel = req.query.operatorTel;
      const state = (await isBlocked(s, t.tenantId, BLACK_TYPE.phone, tel, { publicCall: true }))
        ? 'blocked'
        : await withTenant(s.db, t.tenantId, (tx) => phoneState(tx, t.tenantId, tel));
      return ok({ state });
    },
  });

  // Sends a 6-digit code (1 register, 2 reset password); the limits answer 429.
  app.route({
    ...declared(api.verification, schemas.verification, tags, at),
    handler: async (req) => {
      const t = await publicTenant(s, req);
      const { operatorTel: tel, type } = req.query;
      if (
        (await isBlocked(s, t.tenantId, BLACK_TYPE.phone, tel, { publicCall: true })) ||
        (await isBlocked(s, t.tenantId, BLACK_TYPE.ip, req.ip))
      )
        throw badRequest(texts.cannotSend);
      await withTenant(s.db, t.tenantId, async (tx) => {
        await checkCodeRecipient(tx, t.tenantId, tel, type);
        await sendCode(s, tx, t, { phone: tel, type, userAgent: req.query.userAgent, ip: req.ip, lang: req.lang });
      });
      return ok(true, texts.codeSent);
    },
  });

  // Checks a code: right → a one-use ticket (15 minutes) for register or the password reset.
  app.route({
    ...declared(api.verificat, schemas.verificat, tags, at),
    handler: async (req) => {
      const t = await publicTenant(s, req);
      const q = req.query;
      const call = { phone: q.operatorTel, type: q.type, userAgent: q.userAgent, code: q.verificationCode };
      const result = await withTenant(s.db, t.tenantId, (tx) => checkCode(s, tx, t.tenantId, call));
      // The wrong try is counted (its transaction committed) before the refusal is answered.
      if ('wrong' in result) throw badRequest(result.burned ? texts.codeGone : texts.codeWrong);
      return ok({ ticket: result.ticket });
    },
  });

  // The registration: the form + the ticket of a type-1 code → a client pending review and its approval. The form is
  // checked with the binding's body (the declared one with the columns' widths).
  const registerRoute = declared(api.register, schemas.register, tags, at);
  const { password, ticket } = schemas.register.body.shape;
  app.route({
    ...registerRoute,
    schema: { ...registerRoute.schema, body: body.extend({ password, ticket }) },
    handler: async (req) => {
      const t = await publicTenant(s, req);
      const form = req.body as Record<string, unknown> & { password: string; ticket: string; operatorTel: string };
      const problem = passwordPolicyError(form.password, String(form.appClientAccount || form.operatorTel));
      if (problem) throw badRequest(problem, [{ field: 'password', message: problem }]);
      await refuseBlocked(s, t.tenantId, form, req.ip);
      const hash = await hashPassword(md5Hex(form.password));
      await withTenant(s.db, t.tenantId, (tx) => registerClient(s, tx, t.tenantId, form, hash));
      return ok(true, texts.registered);
    },
  });

  // The licence image of a registration, before any login: images only (jpg, png, webp), at most 5 MB, within the
  // per-address limit of the public calls; stored as an attachment of the tenant (docs/clients.md "Registration").
  app.route({
    ...declared(api.licence, schemas.licence, tags, at),
    handler: async (req) => {
      const t = await publicTenant(s, req);
      const stored = await storeUpload(s, req, {
        tenantId: t.tenantId,
        userId: null,
        maxBytes: LICENCE_MAX_BYTES,
        only: ['jpg', 'png', 'webp'],
      });
      return ok({ link: stored.link, attachId: stored.attachId }, texts.licenceUploaded);
    },
  });

  // The review state of a phone's latest application — no personal data.
  app.route({
    ...declared(api.reviewed, schemas.reviewed, tags, at),
    handler: async (req) => {
      const t = await publicTenant(s, req);
      const status = await withTenant(s.db, t.tenantId, (tx) => reviewState(tx, t.tenantId, req.query.operatorTel));
      return ok({ status });
    },
  });

  // A client sets a new password with the ticket of a type-2 code ("forgot password").
  app.route({
    ...declared(api.resetPassword, schemas.resetPassword, tags, at),
    handler: async (req) => {
      const t = await publicTenant(s, req);
      const hash = await hashPassword(md5Hex(req.body.password));
      const userId = await withTenant(s.db, t.tenantId, (tx) =>
        resetClientPassword(s, tx, t.tenantId, { ...req.body, hash }),
      );
      await revokeUserSessions(s, [userId]);
      return ok(true, texts.passwordReset);
    },
  });
};
