import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages, shell, type Captcha } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { fromContract } from '../../platform/contract-route.ts';
import { ok } from '../../platform/envelope.ts';
import { clearFilesCookie, setFilesCookie } from '../../platform/file-access.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bumpEpoch } from '../../platform/live.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { Services } from '../../platform/services.ts';
import { consumeCaptcha, type Captchas } from './captcha.ts';
import {
  OAuthError,
  type Issued,
  allowsGrant,
  authenticate,
  checkClient,
  checkTenant,
  openSession,
  refreshSession,
  revokeSession,
} from './service.ts';
import { authTexts } from './messages.ts';
import { userInfo } from '../user/index.ts';
import { auditBlocked, BLACK_TYPE, isBlocked } from '../blacklist/index.ts';

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
};

export function authRoutes(app: FastifyInstance, s: Services, captchas: Captchas) {
  const tags = ['auth'];
  // The token call answers OAuth's own error shape, so its input is parsed here (body and query merged), not by the
  // route's schema; its answer keeps the declared schema (docs/api.md "Answers").
  const { schema: tokenSchema, ...tokenRoute } = fromContract(shell.token, apiSchemas.shell.token, tags);
  app.route({
    ...tokenRoute,
    schema: { tags, summary: shell.token.summary, response: tokenSchema.response },
    handler: async (req, reply) => {
      try {
        const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
        const parsed = apiSchemas.shell.token.query.safeParse({ ...body, ...(req.query as object) });
        if (!parsed.success) throw new OAuthError(400, messages.badRequest);
        const q = parsed.data;
        const client = await checkClient(s, req.headers.authorization);
        const grant = q.grant_type ?? 'password';
        if (!allowsGrant(client, grant)) throw new OAuthError(400, authTexts.badGrant);
        const meta = { ip: req.ip, userAgent: req.headers['user-agent'] };
        // The token JSON, with the files cookie of the session (docs/system-api.md "Files").
        const answer = async (issued: Issued) => {
          await setFilesCookie(req, reply, s.tokens, issued.files, issued.ttlSeconds);
          return issued.answer;
        };

        if (grant === 'refresh_token') {
          if (!q.refresh_token) throw new OAuthError(401, authTexts.badRefresh);
          // Refused from a blacklisted address like a login, with the same message (the session's tenant decides).
          const issued = await refreshSession(s, q.refresh_token, client, async (tenantId) => {
            if (!(await isBlocked(s, tenantId, BLACK_TYPE.ip, req.ip, { publicCall: true }))) return;
            req.log.warn({ tenantId, refused: 'blacklisted-ip' }, 'token refresh refused');
            await auditBlocked(s, tenantId, req.id, {
              entity: 'refresh',
              type: BLACK_TYPE.ip,
              detail: { ip: req.ip },
            });
            throw new OAuthError(400, authTexts.ipBlocked);
          });
          return await answer(issued);
        }
        if (grant === 'social') throw new OAuthError(400, authTexts.noSocial);
        if (grant !== 'captcha' && grant !== 'password') throw new OAuthError(400, authTexts.badGrant);

        if (grant === 'captcha') {
          const good = await consumeCaptcha(s, header(req, 'captcha-key'), header(req, 'captcha-code'));
          if (!good) throw new OAuthError(400, authTexts.badCaptcha);
        } else if (s.config.captchaRequired) {
          throw new OAuthError(400, authTexts.captchaRequired);
        }
        if (!q.username || !q.password) throw new OAuthError(400, authTexts.missing);
        const tenantId = header(req, 'tenant-id') ?? q.tenantId ?? '000000';
        await checkTenant(s, tenantId);
        // A blacklisted address (the tenant's entries or the platform's) is refused before any password check.
        if (await isBlocked(s, tenantId, BLACK_TYPE.ip, req.ip, { publicCall: true })) {
          req.log.warn({ tenantId, refused: 'blacklisted-ip' }, 'login refused');
          await auditBlocked(s, tenantId, req.id, {
            entity: 'login',
            type: BLACK_TYPE.ip,
            detail: { account: q.username.slice(0, 45), ip: req.ip },
          });
          throw new OAuthError(400, authTexts.ipBlocked);
        }
        const u = await authenticate(s, tenantId, q.username, q.password, req.ip);
        return await answer(await openSession(s, u, client, meta));
      } catch (err) {
        if (err instanceof OAuthError) return reply.status(err.status).send(err.body(req.lang));
        throw err;
      }
    },
  });

  app.route({
    ...fromContract(shell.captcha, apiSchemas.shell.captcha, tags),
    handler: async (_req, reply): Promise<Captcha> => {
      reply.header('cache-control', 'no-store');
      const { key, image } = await captchas.draw();
      return { key, image, required: s.config.captchaRequired };
    },
  });

  const logout = async (req: FastifyRequest, reply: FastifyReply) => {
    const auth = requireAuth(req);
    await revokeSession(s, auth.sid);
    clearFilesCookie(req, reply);
    return reply.send(ok(true));
  };
  app.route({ ...fromContract(shell.logout, apiSchemas.shell.logout, tags), handler: logout });

  app.route({
    ...fromContract(shell.oauthUserInfo, apiSchemas.shell.oauthUserInfo, tags),
    handler: async (req) => ok(await userInfo(s, requireAuth(req))),
  });

  // Every server drops the tenant's cached reads: the epoch moves on in the database, this one clears at once.
  app.route({
    ...fromContract(shell.clearCache, apiSchemas.shell.clearCache, tags),
    handler: async (req) => {
      const { tenantId } = requireAuth(req);
      await withTenant(s.db, tenantId, (tx) => bumpEpoch(tx, tenantId));
      s.cache.clear(tenantId);
      return ok(true);
    },
  });
}
