import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden, unauthorized } from './errors.ts';
import type { LiveState } from './live.ts';
import type { AccessClaims, TokenService } from './tokens.ts';
import { platformTexts } from './messages.ts';
import { setLane } from '../db/fair-gate.ts';

export type AccessLookup = {
  /**
   * The token's live state (docs/server.md "Live state and cache epochs"): one query for the session, the user's
   * current roles and department, the tenant and the cache epochs; throws a 401 when the token no longer stands.
   * Absent only in the revocation bench's "off" run, which measures what the check costs.
   */
  live?: (claims: AccessClaims) => Promise<LiveState>;
  /** Menu and button codes the roles hold. */
  codes: (tenantId: string, roleIds: string[]) => Promise<Set<string>>;
  /** Whether an API scope of the roles grants this method + path. */
  apiGranted: (tenantId: string, roleIds: string[], method: string, path: string, wanted: string[]) => Promise<boolean>;
  isPlatformAdmin: (auth: AccessClaims) => Promise<boolean>;
};

/** What a user who must change their password may still call: the change dialog and the shell around it. */
const MUST_CHANGE_ALLOWED = new Set([
  '/api/blade-auth/oauth/user-info',
  '/api/blade-auth/oauth/logout',
  '/api/blade-auth/oauth/clear-cache',
  '/api/blade-user/info',
  '/api/blade-user/update-password',
  '/api/blade-system/menu/routes',
  '/api/blade-system/menu/buttons',
  '/api/blade-system/menu/top-menu',
  '/api/blade-log/error-logs',
  '/api/blade-system/dict/dictionary',
  '/api/blade-system/dict-biz/dictionary',
]);
const mustChangeFirst = () => new AppError(403, platformTexts.mustChangeFirst);

export function bearerOf(req: FastifyRequest): string | null {
  const raw = req.headers['blade-auth'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  const m = /^bearer\s+(\S+)$/i.exec(value.trim());
  return m ? m[1] : null;
}

/**
 * Fail closed: every route needs a valid access token unless it says `config.auth = 'none'`;
 * a route that declares a permission code is refused unless the caller's roles hold it or an API scope of
 * theirs matches the call; a platform route is refused to anyone but the platform administrator.
 */
export function registerGuard(app: FastifyInstance, tokens: TokenService, access: AccessLookup): void {
  app.addHook('onRequest', async (req) => {
    // Decide on the route that matched, never on the raw URL: the router decodes `/%61pi/…` to `/api/…`.
    const route = req.routeOptions.url;
    if (!route) return; // unknown path: the 404 handler answers
    if (!route.startsWith('/api/') || route.startsWith('/api/docs')) return;
    const config = req.routeOptions.config ?? {};
    // A public route acts for nobody, token or not.
    if (config.auth === 'none') return;
    const token = bearerOf(req);
    if (!token) throw unauthorized();
    const claims = await tokens.verifyAccess(token);
    if (!claims) throw unauthorized();
    setLane(claims.tenantId, claims.userId);
    // The roles, department and password flag the request acts with are the user's as they are now.
    const live = access.live ? await access.live(claims) : claims;
    req.auth = {
      ...claims,
      roleIds: live.roleIds,
      deptId: live.deptId,
      mustChange: live.mustChange,
      regionCode: live.regionCode ?? null,
      clientInfoId: live.clientInfoId ?? null,
    };
    if (req.auth.mustChange && !MUST_CHANGE_ALLOWED.has(route)) throw mustChangeFirst();
    const auth = req.auth;
    if (config.platform && !(await access.isPlatformAdmin(auth))) throw forbidden('administrator@000000');
    if (config.permission) {
      const wanted = Array.isArray(config.permission) ? config.permission : [config.permission];
      const codes = await access.codes(auth.tenantId, auth.roleIds);
      if (
        !wanted.some((c) => codes.has(c)) &&
        !(await access.apiGranted(auth.tenantId, auth.roleIds, req.method, route, wanted))
      )
        throw forbidden(wanted.join(' / '));
    }
  });
}

export function requireAuth(req: FastifyRequest) {
  if (!req.auth) throw unauthorized();
  return req.auth;
}
