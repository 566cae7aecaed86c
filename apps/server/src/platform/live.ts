import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { apiScope, cacheEpoch, dataScope, dict, dictBiz, menu, param, role, topMenu } from '../db/schema/index.ts';
import { authTexts } from '../modules/auth/messages.ts';
import { GLOBAL_SCOPE } from './cache.ts';
import { AppError, unauthorized } from './errors.ts';
import type { Services } from './services.ts';
import type { AccessClaims } from './tokens.ts';

/**
 * Live state and cache epochs (docs/server.md "Live state and cache epochs"): what a token says is checked against the
 * database on every request, so a logout, a removed or disabled user or tenant, changed roles and changed grants take
 * effect at the next request on every server sharing the database.
 */

/**
 * The tables whose rows feed the read caches, and whose epoch a write to them moves: the tenant's own, or the global
 * one for what every tenant reads. The CRUD factory and the action primitive bump it in the write's transaction; a
 * module writing one of these tables by hand calls `bumpEpoch` itself.
 */
const cacheFed = new Map<PgTable, 'tenant' | 'global'>([
  [menu, 'global'],
  [dict, 'global'],
  [param, 'global'],
  [role, 'tenant'],
  [dataScope, 'tenant'],
  [apiScope, 'tenant'],
  [topMenu, 'tenant'],
  [dictBiz, 'tenant'],
]);

/** The epoch a write to `table` by a caller of `tenantId` moves, if the table feeds the caches. */
export function epochScopeOf(table: PgTable, tenantId: string): string | undefined {
  const kind = cacheFed.get(table);
  return kind === 'global' ? GLOBAL_SCOPE : kind === 'tenant' ? tenantId : undefined;
}

/**
 * Moves a scope's epoch on, inside the transaction of the write that changes cached data: every server drops what it
 * cached under the older epoch at its next request. Call `s.cache.clear(scope)` after the commit for this server.
 */
export async function bumpEpoch(tx: Db, scope: string): Promise<void> {
  await tx
    .insert(cacheEpoch)
    .values({ scope, epoch: 1 })
    .onConflictDoUpdate({ target: cacheEpoch.scope, set: { epoch: sql`${cacheEpoch.epoch} + 1` } });
}

/** What a request acts with: the user's roles and department as they are now, not as the token says. */
export type LiveState = {
  roleIds: string[];
  deptId: string | null;
  mustChange: boolean;
  regionCode?: string | null;
  clientInfoId?: string | null;
};

/** What the live-state query answers (db/migrations/0015_live_state_region.sql). */
type LiveRow = {
  session_ok: boolean;
  user_ok: boolean | null;
  dept_id: string | null;
  region_code: string | null;
  client_info_id: string | null;
  must_change: boolean | null;
  role_ids: string | null;
  tenant_ok: boolean | null;
  tenant_expired: boolean | null;
  epoch: string | null;
  global_epoch: string | null;
};

/**
 * One indexed query per authenticated request: the session (not revoked, not expired), the user (live, enabled, their
 * roles and department), the tenant (live, enabled, not expired) and the cache epochs of the tenant and of the global
 * scope, which it hands to the cache. Throws a 401 when the token no longer stands.
 *
 * It is the hottest query of the server, so it is one round trip to a database function (its plan made once per
 * connection) that sets the tenant context of withTenant() for its own read: row-level security applies as in any
 * tenant query, and the settings end with the statement. It never runs inside another transaction.
 */
export async function readLiveState(s: Services, claims: AccessClaims): Promise<LiveState> {
  const { tenantId } = claims;
  const result = await s.db.execute(
    sql`select * from atrium_live_state(${claims.sid}, ${claims.userId}, ${tenantId}, ${s.now().toISOString()})`,
  );
  const row = (result as unknown as { rows: LiveRow[] }).rows[0];
  if (!row?.session_ok || !row.user_ok || !row.tenant_ok) throw unauthorized();
  if (row.tenant_expired) throw new AppError(401, authTexts.tenantExpired);
  s.cache.observe(tenantId, BigInt(row.epoch ?? 0), BigInt(row.global_epoch ?? 0));
  return {
    roleIds: row.role_ids ? row.role_ids.split(',') : [],
    deptId: row.dept_id,
    mustChange: !!row.must_change,
    regionCode: row.region_code,
    clientInfoId: row.client_info_id,
  };
}
