import type { FastifyReply, FastifyRequest } from 'fastify';
import { setLane } from '../db/fair-gate.ts';
import { AppError } from './errors.ts';
import { bearerOf, type AccessLookup } from './guard.ts';
import type { FilesClaims, TokenService } from './tokens.ts';

/**
 * Who may read a stored file (docs/system-api.md "Files"): the console's `<img>` and downloads cannot send the bearer
 * header, so sign-in and every token refresh also set the files cookie — HttpOnly, SameSite=Strict, sent only to
 * `/files`, holding a token of its own audience (the tenant, user and session) — and logout clears it. API clients
 * may send their bearer token instead. Either way the session must still stand (the live state the API checks).
 */
export const FILES_COOKIE = 'atrium_files';
const FILES_PATH = '/files';

const cookieOptions = (req: FastifyRequest) =>
  ({ path: FILES_PATH, httpOnly: true, sameSite: 'strict', secure: req.protocol === 'https' }) as const;

/** Sets the files cookie for a session, lasting as long as the access token issued with it. */
export async function setFilesCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  tokens: TokenService,
  claims: FilesClaims,
  ttlSeconds: number,
): Promise<void> {
  const token = await tokens.signFiles(claims, ttlSeconds);
  reply.setCookie(FILES_COOKIE, token, { ...cookieOptions(req), maxAge: ttlSeconds });
}

/** Clears the files cookie (logout). */
export function clearFilesCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(FILES_COOKIE, cookieOptions(req));
}

/** The claims the request presents: a valid bearer token's, else a valid files cookie's; null when neither. */
async function presented(req: FastifyRequest, tokens: TokenService): Promise<FilesClaims | null> {
  const bearer = bearerOf(req);
  const byBearer = bearer ? await tokens.verifyAccess(bearer) : null;
  if (byBearer) return byBearer;
  const header = req.headers.cookie;
  const cookie = header ? req.server.parseCookie(header)[FILES_COOKIE] : undefined;
  return cookie ? tokens.verifyFiles(cookie) : null;
}

/**
 * The tenant a request reads files for, or null: no or a forged or expired token or cookie, a session logged out or
 * revoked, a user or tenant removed or disabled. A database that cannot answer is not a refusal: its error goes on.
 */
export async function fileReader(
  req: FastifyRequest,
  tokens: TokenService,
  access: AccessLookup,
): Promise<string | null> {
  const claims = await presented(req, tokens);
  if (!claims) return null;
  try {
    await access.live({ ...claims, account: '', roleIds: [], deptId: null, clientId: '' });
  } catch (err) {
    if (err instanceof AppError && err.status === 401) return null;
    throw err;
  }
  setLane(claims.tenantId, claims.userId);
  return claims.tenantId;
}
