import { randomUUID } from 'node:crypto';
import { and, count, eq, gte, isNull } from 'drizzle-orm';
import { authSession, dept, loginFailure, oauthClient, role, tenant, user, userRole } from '../../db/schema/index.ts';
import { newId } from '../../db/ids.ts';
import { burnPasswordCheck, hashPassword, sha256Hex, verifyPassword } from '../../platform/password.ts';
import { newRefreshToken } from '../../platform/tokens.ts';
import type { Services } from '../../platform/services.ts';
import { fill, type Msg } from '@atrium/contract';
import type { Lang } from '../../platform/errors.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { Db } from '../../db/client.ts';
import { authTexts } from './messages.ts';

export const MAX_FAILURES = 5;
export const LOCK_WINDOW_MS = 10 * 60_000;

/**
 * A failed token request: raw OAuth error JSON, not the envelope — so the preSerialization hook that renders an
 * envelope's Msg never sees it; the route renders `error_description` itself in the request's language.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 429,
    readonly text: Msg,
  ) {
    super(text.zh);
  }
  body(lang: Lang) {
    return { error_code: this.status, error_description: this.text[lang] };
  }
}

export const lockedText = (minutes: number) => fill(authTexts.locked, { minutes });

export type Client = typeof oauthClient.$inferSelect;

export async function checkClient(s: Services, authorization: string | undefined): Promise<Client> {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? '');
  if (!m) throw new OAuthError(401, authTexts.badClient);
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  // A NUL or another control character is malformed input (the database refuses a NUL in text): a 400 before any
  // lookup (docs/server.md "Bad input").
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(decoded)) throw new OAuthError(400, authTexts.badClientHeader);
  const i = decoded.indexOf(':');
  if (i < 1) throw new OAuthError(401, authTexts.badClient);
  const clientId = decoded.slice(0, i);
  const secret = decoded.slice(i + 1);
  // Read each time (one indexed row): the token endpoint has no live-state query to tell it a cached client changed.
  const [client] = await s.db
    .select()
    .from(oauthClient)
    .where(and(eq(oauthClient.clientId, clientId), eq(oauthClient.isDeleted, 0), eq(oauthClient.status, 1)));
  if (!client || client.clientSecretHash !== sha256Hex(secret)) throw new OAuthError(401, authTexts.badClient);
  return client;
}

export function allowsGrant(client: Client, grant: string): boolean {
  return client.authorizedGrantTypes
    .split(',')
    .map((g) => g.trim())
    .includes(grant);
}

export async function checkTenant(s: Services, tenantId: string) {
  const [t] = await s.db
    .select()
    .from(tenant)
    .where(and(eq(tenant.tenantId, tenantId), eq(tenant.isDeleted, 0)));
  if (!t) throw new OAuthError(400, authTexts.noTenant);
  if (t.status !== 1) throw new OAuthError(400, authTexts.tenantDisabled);
  if (t.expireTime && t.expireTime.getTime() < s.now().getTime()) throw new OAuthError(400, authTexts.tenantExpired);
  return t;
}

async function recentFailures(s: Services, tenantId: string, account: string) {
  const since = new Date(s.now().getTime() - LOCK_WINDOW_MS);
  const rows = await s.db
    .select({ at: loginFailure.at })
    .from(loginFailure)
    .where(and(eq(loginFailure.tenantId, tenantId), eq(loginFailure.account, account), gte(loginFailure.at, since)));
  return rows.map((r) => r.at.getTime()).sort((a, b) => a - b);
}

export async function checkNotLocked(s: Services, tenantId: string, account: string) {
  const failures = await recentFailures(s, tenantId, account);
  if (failures.length >= MAX_FAILURES) {
    const unlockAt = failures[failures.length - MAX_FAILURES] + LOCK_WINDOW_MS;
    const minutes = Math.max(1, Math.ceil((unlockAt - s.now().getTime()) / 60_000));
    throw new OAuthError(429, lockedText(minutes));
  }
}

/** Checks account and password of a tenant; every failure counts towards the lock. */
export async function authenticate(s: Services, tenantId: string, account: string, wirePassword: string, ip: string) {
  await checkNotLocked(s, tenantId, account);
  const [u] = await withTenant(s.db, tenantId, (tx) =>
    tx
      .select()
      .from(user)
      .where(and(eq(user.tenantId, tenantId), eq(user.account, account), eq(user.isDeleted, 0))),
  );
  let ok = false;
  if (u) {
    const v = await verifyPassword(wirePassword, u.password);
    ok = v.ok;
    if (ok && v.needsRehash) {
      const rehashed = await hashPassword(wirePassword);
      await withTenant(s.db, tenantId, (tx) =>
        tx
          .update(user)
          .set({ password: rehashed })
          .where(and(eq(user.id, u.id), eq(user.tenantId, tenantId))),
      );
    }
  } else {
    await burnPasswordCheck(wirePassword);
  }
  if (!ok || !u) {
    await s.db.insert(loginFailure).values({ id: newId(), tenantId, account: account.slice(0, 45), at: s.now(), ip });
    throw new OAuthError(400, authTexts.badCredentials);
  }
  if (u.status === 2) throw new OAuthError(400, authTexts.pending);
  if (u.status !== 1) throw new OAuthError(400, authTexts.disabled);
  await s.db.delete(loginFailure).where(and(eq(loginFailure.tenantId, tenantId), eq(loginFailure.account, account)));
  return u;
}

export type UserRow = typeof user.$inferSelect;

async function rolesOf(db: Db, u: UserRow) {
  return db
    .select({ id: role.id, alias: role.roleAlias, name: role.roleName })
    .from(userRole)
    .innerJoin(role, and(eq(role.id, userRole.roleId), eq(role.isDeleted, 0)))
    .where(and(eq(userRole.userId, u.id), eq(userRole.tenantId, u.tenantId)));
}

/** Opens a session: the token JSON of docs/system-api.md "Sign-in", and the session for the files cookie. */
export async function openSession(s: Services, u: UserRow, client: Client, meta: { ip: string; userAgent?: string }) {
  const refresh = newRefreshToken();
  const sid = randomUUID();
  const now = s.now();
  await s.db.insert(authSession).values({
    id: sid,
    tenantId: u.tenantId,
    userId: u.id,
    clientId: client.clientId,
    refreshHash: sha256Hex(refresh),
    expiresAt: new Date(now.getTime() + client.refreshTokenValidity * 1000),
    createdAt: now,
    lastUsedAt: now,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 500),
  });
  return tokenResponse(s, u, client, sid, refresh);
}

async function tokenResponse(s: Services, u: UserRow, client: Client, sid: string, refresh: string) {
  const { roles, deptName } = await withTenant(s.db, u.tenantId, async (tx) => {
    const roles = await rolesOf(tx, u);
    let deptName = '';
    if (u.deptId) {
      const [d] = await tx
        .select({ name: dept.deptName })
        .from(dept)
        .where(and(eq(dept.id, u.deptId), eq(dept.tenantId, u.tenantId)));
      deptName = d?.name ?? '';
    }
    return { roles, deptName };
  });
  const roleIds = roles.map((r) => r.id);
  const { token, jti } = await s.tokens.signAccess(
    {
      tenantId: u.tenantId,
      userId: u.id,
      account: u.account,
      roleIds,
      deptId: u.deptId,
      clientId: client.clientId,
      sid,
      mustChange: u.mustChangePassword === 1,
    },
    client.accessTokenValidity,
  );
  // The files cookie's token (platform/file-access.ts) lives as long as the access token.
  const files = { tenantId: u.tenantId, userId: u.id, sid };
  const answer = {
    access_token: token,
    token_type: 'bearer',
    refresh_token: refresh,
    expires_in: client.accessTokenValidity,
    scope: 'all',
    tenant_id: u.tenantId,
    user_id: u.id,
    user_name: u.account,
    account: u.account,
    real_name: u.realName ?? '',
    nick_name: u.name ?? u.account,
    avatar: u.avatar ?? '',
    role_id: roleIds.join(','),
    role_name: roles.map((r) => r.alias).join(','),
    dept_id: u.deptId ?? '',
    dept_name: deptName,
    post_id: u.postId ?? '',
    oauth_id: u.oauthId ?? '',
    client_id: client.clientId,
    must_change_password: u.mustChangePassword === 1,
    license: 'Atrium',
    jti,
  };
  return { answer, files, ttlSeconds: client.accessTokenValidity };
}

/** What a sign-in or refresh answers, and the session the files cookie is set for (platform/file-access.ts). */
export type Issued = Awaited<ReturnType<typeof tokenResponse>>;

/**
 * Rotates the refresh token: the presented one stops working in the same statement that issues the next.
 * `admit(tenantId)` runs first, once the session's tenant is known, and may refuse (throw) — the blacklisted address
 * check of the token route (docs/system-api.md "Blacklist"); a refused refresh leaves the token as it was.
 */
export async function refreshSession(
  s: Services,
  presented: string,
  client: Client,
  admit?: (tenantId: string) => Promise<void>,
) {
  const oldHash = sha256Hex(presented);
  const next = newRefreshToken();
  const now = s.now();
  if (admit) {
    const [live] = await s.db
      .select({ tenantId: authSession.tenantId })
      .from(authSession)
      .where(
        and(
          eq(authSession.refreshHash, oldHash),
          isNull(authSession.revokedAt),
          gte(authSession.expiresAt, now),
          eq(authSession.clientId, client.clientId),
        ),
      );
    if (!live) throw new OAuthError(401, authTexts.badRefresh);
    await admit(live.tenantId);
  }
  const [sess] = await s.db
    .update(authSession)
    .set({ refreshHash: sha256Hex(next), lastUsedAt: now })
    .where(
      and(
        eq(authSession.refreshHash, oldHash),
        isNull(authSession.revokedAt),
        gte(authSession.expiresAt, now),
        eq(authSession.clientId, client.clientId),
      ),
    )
    .returning();
  if (!sess) throw new OAuthError(401, authTexts.badRefresh);
  const [u] = await withTenant(s.db, sess.tenantId, (tx) =>
    tx
      .select()
      .from(user)
      .where(and(eq(user.id, sess.userId), eq(user.tenantId, sess.tenantId), eq(user.isDeleted, 0))),
  );
  if (!u || u.status !== 1) throw new OAuthError(401, authTexts.badRefresh);
  await checkTenant(s, u.tenantId);
  return tokenResponse(s, u, client, sess.id, next);
}

/** Ends a session: its refresh token at once, its access tokens at their next request on any server (platform/live.ts). */
export async function revokeSession(s: Services, sid: string) {
  await s.db
    .update(authSession)
    .set({ revokedAt: s.now() })
    .where(and(eq(authSession.id, sid), isNull(authSession.revokedAt)));
}

export { revokeUserSessions } from '../../platform/sessions.ts';

export async function failureCount(s: Services, tenantId: string, account: string) {
  const [r] = await s.db
    .select({ n: count() })
    .from(loginFailure)
    .where(and(eq(loginFailure.tenantId, tenantId), eq(loginFailure.account, account)));
  return r?.n ?? 0;
}
