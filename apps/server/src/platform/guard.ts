import { isApiCall } from '@atrium/contract';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { AppError, forbidden, unauthorized } from './errors.ts';
import { StaleLiveState, type LiveCheck, type LiveState } from './live.ts';
import type { AccessClaims, TokenService } from './tokens.ts';
import { platformTexts } from './messages.ts';
import { setLane } from '../db/fair-gate.ts';

export type AccessLookup = {
  /**
   * The token's live state (docs/server.md "Live state and cache epochs"): the session, the user's current roles and
   * department, the tenant and the cache epochs, from the server's memory or by one query; throws a 401 when the
   * token no longer stands.
   */
  live: (claims: AccessClaims) => Promise<LiveState>;
  /**
   * For a read route (`config.liveInRead`): the session's last live state, on which the request is admitted, and the
   * check its first read makes in the same round trip (platform/live.ts `speculate`); undefined when there is none.
   */
  speculate: (claims: AccessClaims) => { state: LiveState; check: LiveCheck } | undefined;
  /** Menu and button codes the roles hold. */
  codes: (tenantId: string, roleIds: string[]) => Promise<Set<string>>;
  /** Whether an API scope of the roles grants this method + path. */
  apiGranted: (tenantId: string, roleIds: string[], method: string, path: string, wanted: string[]) => Promise<boolean>;
  isPlatformAdmin: (auth: AccessClaims) => Promise<boolean>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** What the guard asks of each request (registerGuard). */
    access: AccessLookup;
  }
}

type RouteAt = { route: string; config: FastifyContextConfig };
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
 *
 * A read route (`config.liveInRead`: the CRUD factory's list and detail) may be admitted on the session's last live
 * state; its first read then makes the live-state check in its own round trip, and the answer waits for it: a token
 * that no longer stands gets its 401, and a guess the database no longer agrees with admits the request again on the
 * live state and runs it again (docs/server.md "Live state and cache epochs"). A guess only admits: a refusal is
 * always decided on the live state.
 */
export function registerGuard(app: FastifyInstance, tokens: TokenService, access: AccessLookup): void {
  // The app's lookups, read at each request (the revocation bench swaps `live` to measure what the check costs).
  app.decorate('access', access);
  /**
   * Sets what the request acts with and applies the route's checks: password flag, platform, permission code. `at` is
   * the matched route's path and config, read once per request (Fastify's `req.routeOptions` builds an object of a
   * dozen fields at every read).
   */
  const admit = async (
    req: FastifyRequest,
    at: RouteAt,
    claims: AccessClaims,
    live: Pick<AccessClaims, keyof LiveState>,
    check?: LiveCheck,
  ) => {
    const { route, config } = at;
    req.auth = {
      ...claims,
      roleIds: live.roleIds,
      deptId: live.deptId,
      mustChange: !!live.mustChange,
      regionCode: live.regionCode ?? null,
      clientInfoId: live.clientInfoId ?? null,
      liveCheck: check,
    };
    // A user who must change their password may call only the change dialog and the shell around it (the routes
    // declared `whileMustChange`).
    if (req.auth.mustChange && !config.whileMustChange) throw mustChangeFirst();
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
  };
  // The roles, department and password flag the request acts with are the user's as they are now.
  const admitLive = async (req: FastifyRequest, at: RouteAt, claims: AccessClaims) =>
    admit(req, at, claims, await access.live(claims));

  app.addHook('onRequest', async (req) => {
    // Decide on the route that matched, never on the raw URL: the router decodes `/%61pi/…` to `/api/…`.
    const options = req.routeOptions;
    const route = options.url;
    if (!route) return; // unknown path: the 404 handler answers
    if (!isApiCall(route)) return;
    const config = options.config ?? {};
    const at = { route, config };
    // A public route acts for nobody, token or not.
    if (config.auth === 'none') return;
    const token = bearerOf(req);
    if (!token) throw unauthorized();
    const claims = await tokens.verifyAccess(token);
    if (!claims) throw unauthorized();
    setLane(claims.tenantId, claims.userId);
    const guess = config.liveInRead ? access.speculate(claims) : undefined;
    if (guess) {
      try {
        return await admit(req, at, claims, guess.state, guess.check);
      } catch {
        // Refused on the guess: decided again on the live state below.
      }
    }
    await admitLive(req, at, claims);
  });

  // A read route's answer waits for its live-state check (made by its first read, or here when it made none).
  app.addHook('onRoute', (r) => {
    if (!(r.config as FastifyContextConfig | undefined)?.liveInRead) return;
    const handler = r.handler as RouteHandlerMethod;
    const at: RouteAt = { route: r.url, config: (r.config ?? {}) as FastifyContextConfig };
    // A bad query is answered after the check too: a token that no longer stands gets its 401 first.
    r.attachValidation = true;
    r.handler = async function (this: FastifyInstance, req, reply) {
      let out: unknown;
      let failure: unknown;
      let failed = false;
      try {
        if (req.validationError) throw req.validationError;
        out = await handler.call(this, req, reply);
      } catch (e) {
        failed = true;
        failure = e;
      }
      const check = req.auth?.liveCheck;
      try {
        if (check && !check.settled) await check.runNow();
        if (failed && failure instanceof StaleLiveState) throw failure;
      } catch (e) {
        if (!(e instanceof StaleLiveState) || !req.auth) throw e;
        // The guess was wrong: nothing read on it is answered; admitted again on the live state, and run again.
        await admitLive(req, at, req.auth);
        if (req.validationError) throw req.validationError;
        return handler.call(this, req, reply);
      }
      if (failed) throw failure;
      return out;
    } as RouteHandlerMethod;
  });
}

export function requireAuth(req: FastifyRequest) {
  if (!req.auth) throw unauthorized();
  return req.auth;
}
