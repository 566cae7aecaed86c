import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from './errors.ts';
import type { TokenService } from './tokens.ts';

export type PermissionLookup = (tenantId: string, roleIds: string[]) => Promise<Set<string>>;

export function bearerOf(req: FastifyRequest): string | null {
  const raw = req.headers['blade-auth'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  const m = /^bearer\s+(\S+)$/i.exec(value.trim());
  return m ? m[1] : null;
}

/**
 * Fail closed: every route needs a valid access token unless it says `config.auth = 'none'`;
 * a route that declares a permission code is refused unless the caller's roles hold it.
 */
export function registerGuard(app: FastifyInstance, tokens: TokenService, permissions: PermissionLookup): void {
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/') || req.url.startsWith('/api/docs')) return;
    const config = req.routeOptions.config ?? {};
    if (!req.routeOptions.url) return; // unknown path: the 404 handler answers
    if (config.auth === 'none') {
      const token = bearerOf(req);
      if (token) req.auth = await tokens.verifyAccess(token);
      return;
    }
    const token = bearerOf(req);
    if (!token) throw unauthorized();
    const claims = await tokens.verifyAccess(token);
    if (!claims) throw unauthorized();
    req.auth = claims;
    if (config.permission) {
      const wanted = Array.isArray(config.permission) ? config.permission : [config.permission];
      const codes = await permissions(claims.tenantId, claims.roleIds);
      if (!wanted.some((c) => codes.has(c))) throw forbidden(wanted.join(' / '));
    }
  });
}

export function requireAuth(req: FastifyRequest) {
  if (!req.auth) throw unauthorized();
  return req.auth;
}
