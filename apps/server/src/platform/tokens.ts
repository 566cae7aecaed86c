import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { ReadCheck } from './tenant-db.ts';

export type AccessClaims = {
  tenantId: string;
  userId: string;
  account: string;
  roleIds: string[];
  deptId: string | null;
  clientId: string;
  sid: string;
  /** Set when the password was reset or given by an administrator: only the calls of the change dialog pass. */
  mustChange?: boolean;
  /** The user's region, live (data scope "own region and below"); not in the token. */
  regionCode?: string | null;
  /** The client (客户) of a client account, live (`${clientInfoId}` in custom data scopes); not in the token. */
  clientInfoId?: string | null;
};

export type AuthContext = AccessClaims & {
  /** Set when the request was admitted on a guess of its live state: its first read makes the check (tenant-db.ts). */
  liveCheck?: ReadCheck;
};

/** Who a files cookie reads for (platform/file-access.ts): a session of a user of a tenant. */
export type FilesClaims = Pick<AccessClaims, 'tenantId' | 'userId' | 'sid'>;

/** The audience of a files token: never an access token (which has none), and an access token is never one. */
const FILES_AUDIENCE = 'atrium-files';

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly now: () => Date,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async signAccess(claims: AccessClaims, ttlSeconds: number): Promise<{ token: string; jti: string }> {
    const jti = randomUUID();
    const iat = Math.floor(this.now().getTime() / 1000);
    const token = await new SignJWT({
      tid: claims.tenantId,
      acc: claims.account,
      rol: claims.roleIds,
      dep: claims.deptId,
      cid: claims.clientId,
      sid: claims.sid,
      ...(claims.mustChange ? { pwc: 1 } : {}),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setJti(jti)
      .setIssuer('atrium')
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(this.key);
    return { token, jti };
  }

  /**
   * The token of the files cookie (docs/system-api.md "Files"): the tenant, user and session only, its own audience,
   * so it opens nothing but `/files/…`.
   */
  async signFiles(claims: FilesClaims, ttlSeconds: number): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ tid: claims.tenantId, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer('atrium')
      .setAudience(FILES_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(this.key);
  }

  /** A files token's claims, or null (forged, expired, another audience); whether the session stands is not seen here. */
  async verifyFiles(token: string): Promise<FilesClaims | null> {
    try {
      const { payload: p } = await jwtVerify(token, this.key, {
        issuer: 'atrium',
        audience: FILES_AUDIENCE,
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      if (typeof p.sub !== 'string' || typeof p.tid !== 'string' || typeof p.sid !== 'string') return null;
      return { tenantId: p.tid, userId: p.sub, sid: p.sid };
    } catch {
      return null;
    }
  }

  /**
   * Verified tokens, so a hot path does not re-run HMAC for every request; expiry is still checked each time. Only the
   * signature and claims are kept: whether the session, user and tenant still stand is read by the guard's live-state
   * query on every request (platform/live.ts), so a logout on any server is seen by all.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; expMs: number }>();

  async verifyAccess(token: string): Promise<AccessClaims | null> {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.expMs > this.now().getTime()) return hit.claims;
      this.verified.delete(token);
      return null;
    }
    const claims = await this.verifyUncached(token);
    if (claims) {
      if (this.verified.size >= 10_000) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { claims: stripExp(claims), expMs: claims.expMs });
    }
    return claims ? stripExp(claims) : null;
  }

  private async verifyUncached(token: string): Promise<(AccessClaims & { expMs: number }) | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: 'atrium',
        algorithms: ['HS256'],
        currentDate: this.now(),
      });
      const p = payload as Record<string, unknown>;
      // A token with an audience (the files cookie's) is not an access token.
      if (p.aud !== undefined) return null;
      if (typeof p.sub !== 'string' || typeof p.tid !== 'string' || typeof p.sid !== 'string') return null;
      return {
        userId: p.sub,
        tenantId: p.tid,
        account: String(p.acc ?? ''),
        roleIds: Array.isArray(p.rol) ? p.rol.map(String) : [],
        deptId: p.dep == null ? null : String(p.dep),
        clientId: String(p.cid ?? ''),
        sid: p.sid,
        expMs: Number(p.exp) * 1000,
        ...(p.pwc === 1 ? { mustChange: true } : {}),
      };
    } catch {
      return null;
    }
  }
}

function stripExp(c: AccessClaims & { expMs?: number }): AccessClaims {
  const { expMs: _expMs, ...claims } = c;
  return claims;
}

export const newRefreshToken = () => randomBytes(32).toString('base64url');
