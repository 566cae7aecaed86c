import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Db, Statement } from '../db/client.ts';
import type { ReadCheck } from './tenant-db.ts';
import { apiScope, cacheEpoch, dataScope, dict, dictBiz, menu, param, role, topMenu } from '../db/schema/index.ts';
import { GLOBAL_SCOPE } from './cache.ts';
import { AppError, unauthorized } from './errors.ts';
import type { Services } from './services.ts';
import type { AccessClaims } from './tokens.ts';
import { platformTexts } from './messages.ts';
import { rowsOf } from '../db/rows.ts';
import { tenantRoutesOf } from './tenant-route.ts';

/**
 * Live state and cache epochs (docs/server.md "Live state and cache epochs"): what a token says is checked against the
 * database's live state on every request — read from this server's memory while the write events reach it
 * (platform/live-memory.ts), else by the live-state query — so a logout, a removed or disabled user or tenant,
 * changed roles and changed grants take effect at the next request on this server and within milliseconds on every
 * other server sharing the database.
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

/** What the live-state query answers (db/migrations/0036_live_events.sql). */
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
  /** When the session ends and the tenant expires, ms since 1970 (db/migrations/0036_live_events.sql). */
  session_expires: string | null;
  tenant_expires: string | null;
};

/**
 * The live-state query of a token (db/migrations/0036_live_events.sql). Its columns are named: it runs as a
 * prepared statement, whose answer must keep its shape if a later migration makes the function again.
 */
const LIVE_COLUMNS = sql.raw(
  'session_ok, user_ok, dept_id, region_code, client_info_id, must_change, role_ids, tenant_ok, tenant_expired, epoch, global_epoch, session_expires, tenant_expires',
);
function liveQuery(s: Services, claims: AccessClaims): SQL {
  return sql`select ${LIVE_COLUMNS} from atrium_live_state(${claims.sid}, ${claims.userId}, ${claims.tenantId}, ${s.now().toISOString()})`;
}
/**
 * The same as a statement: its text made once, the values of the token (no drizzle rendering per request);
 * bench/bare-list.ts sends this text too.
 */
export const LIVE_TEXT = new PgDialect().sqlToQuery(
  sql`select ${LIVE_COLUMNS} from atrium_live_state(${''}, ${''}, ${''}, ${''})`,
).sql;
function liveStatement(s: Services, claims: AccessClaims): Statement {
  return { text: LIVE_TEXT, values: [claims.sid, claims.userId, claims.tenantId, s.now().toISOString()] };
}

/**
 * What the live-state row says of a token: throws a 401 when it no longer stands, hands the epochs to the cache and
 * keeps the state as this server's guess for the session's next request (`speculate`), and in memory when nothing
 * it holds was dropped since `mark` (taken before the query was sent).
 */
function admit(s: Services, claims: AccessClaims, row: LiveRow | undefined, mark: number): Guess {
  if (!row?.session_ok || !row.user_ok || !row.tenant_ok) {
    s.liveGuesses.drop(claims.sid);
    throw unauthorized();
  }
  if (row.tenant_expired) {
    s.liveGuesses.drop(claims.sid);
    throw new AppError(401, platformTexts.tenantExpired);
  }
  const epoch = BigInt(row.epoch ?? 0);
  const globalEpoch = BigInt(row.global_epoch ?? 0);
  s.cache.observe(claims.tenantId, epoch, globalEpoch);
  const state: LiveState = {
    roleIds: row.role_ids ? row.role_ids.split(',') : [],
    deptId: row.dept_id,
    mustChange: !!row.must_change,
    regionCode: row.region_code,
    clientInfoId: row.client_info_id,
  };
  const times = {
    sessionExpires: Number(row.session_expires ?? NaN),
    tenantExpires: row.tenant_expires === null ? null : Number(row.tenant_expires),
  };
  s.liveMemory.keep(mark, claims, state, times, epoch, globalEpoch);
  return s.liveGuesses.keep(claims, state, epoch, globalEpoch);
}

/**
 * The live state of a token: the session (not revoked, not expired), the user (live, enabled, their roles and
 * department), the tenant (live, enabled, not expired) and the cache epochs of the tenant and of the global scope,
 * which it hands to the cache. Throws a 401 when the token no longer stands.
 *
 * Answered from this server's memory when it holds the session (`LiveMemory`: no round trip); else one indexed
 * query, which also decides every refusal. The query is one round trip to a database function (its plan made once
 * per connection) that sets the tenant context of withTenant() for its own read: row-level security applies as in
 * any tenant query, and the settings end with the statement (or with the read-only transaction of a `LiveCheck`).
 */
export async function readLiveState(s: Services, claims: AccessClaims): Promise<LiveState> {
  const held = s.liveMemory.answer(claims, s.now().getTime());
  if (held) {
    s.liveMemory.counts.answered++;
    s.cache.observe(claims.tenantId, held.epoch, held.globalEpoch);
    return held.state;
  }
  s.liveMemory.counts.queried++;
  const moved = tenantRoutesOf(s.db).databases.get(claims.tenantId);
  if (moved) return (await movedLiveState(s, moved, claims)).state;
  const mark = s.liveMemory.mark();
  const [row] = await rowsOf<LiveRow>(s.db, liveQuery(s, claims));
  return admit(s, claims, row, mark).state;
}

/**
 * The live state of a token of a tenant moved to its own database (docs/tenants.md "Sessions and live state"): the
 * session, the tenant and the global epoch from the main database, where the platform's tables stay; the user, their
 * roles and the tenant's cache epoch from the tenant's database, where its writes happen. Two queries, never held in
 * memory nor guessed on: the write events of the tenant's database do not reach the servers' LISTEN connections.
 */
async function movedLiveState(s: Services, tenantDb: Db, claims: AccessClaims) {
  const [main] = await rowsOf<LiveRow>(s.db, liveQuery(s, claims));
  const [own] = await tenantDb.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('app.tenant_id', ${claims.tenantId}, true), set_config('role', 'atrium_app', true)`,
    );
    return rowsOf<Partial<LiveRow>>(
      tx,
      sql`select u.status = 1 as user_ok, u.dept_id::text as dept_id, u.region_code::text as region_code,
        u.client_info_id::text as client_info_id, u.must_change_password = 1 as must_change,
        (select string_agg(ur.role_id::text, ',' order by ur.role_id) from user_role ur
          join role r on r.id = ur.role_id and r.tenant_id = ${claims.tenantId} and r.is_deleted = 0
          where ur.user_id = u.id and ur.tenant_id = ${claims.tenantId}) as role_ids,
        (select c.epoch::text from cache_epoch c where c.scope = ${claims.tenantId}) as epoch
      from "user" u where u.id = ${claims.userId} and u.tenant_id = ${claims.tenantId} and u.is_deleted = 0`,
    );
  });
  const row: LiveRow | undefined = main && { ...main, ...(own ?? { user_ok: null }) };
  // -1: a mark no generation of the memory equals, so nothing is kept.
  const guess = admit(s, claims, row, -1);
  s.liveGuesses.drop(claims.sid);
  return guess;
}

/**
 * The request acted on a guess of the live state that the database no longer agrees with (other roles, department,
 * region, client or password flag, or newer cache epochs): nothing it read may be answered; the request is admitted
 * again on the live state and run again (platform/guard.ts).
 */
export class StaleLiveState extends Error {
  constructor() {
    super('the live state changed since the guess this request was admitted on');
  }
}

/**
 * The live-state check of a request admitted on a guess: made inside the request's first read (`readTenant` sends
 * `statement` with `begin` and the read's own statement, one round trip), or on its own by `runNow` when the request
 * made no read. `settle` throws a 401 when the token no longer stands and `StaleLiveState` when the guess was wrong.
 */
export type LiveCheck = ReadCheck;

/**
 * A request of a session this server has seen may be admitted on the live state it read last time — its roles,
 * department, region, client, password flag — and the cache epochs it holds now, provided its first read makes the
 * live-state check in the same round trip (`LiveCheck`); the answer waits for that check. Undefined when there is no
 * guess (the session's first request here, or one refused since) or the cache has not seen the tenant's epochs.
 */
export function speculate(s: Services, claims: AccessClaims): { state: LiveState; check: LiveCheck } | undefined {
  // Held in memory: `readLiveState` answers without a round trip, so there is nothing to guess.
  if (s.liveMemory.answer(claims, s.now().getTime())) return undefined;
  // A moved tenant's live state is read in two databases (`movedLiveState`): no guess rides with its reads.
  if (tenantRoutesOf(s.db).databases.has(claims.tenantId)) return undefined;
  const guess = s.liveGuesses.of(claims);
  if (!guess) return undefined;
  const epochs = s.cache.epochsOf(claims.tenantId);
  if (!epochs || epochs.tenant !== guess.epoch || epochs.global !== guess.globalEpoch) return undefined;
  s.liveGuesses.counts.guessed++;
  const mark = s.liveMemory.mark();
  const check: LiveCheck = {
    get query() {
      return liveQuery(s, claims);
    },
    statement: liveStatement(s, claims),
    settled: false,
    settle(rows) {
      check.settled = true;
      const counts = s.liveGuesses.counts;
      let fresh: Guess;
      try {
        fresh = admit(s, claims, rows[0] as LiveRow | undefined, mark);
      } catch (e) {
        counts.refused++;
        throw e;
      }
      if (
        !sameState(fresh.state, guess.state) ||
        fresh.epoch !== guess.epoch ||
        fresh.globalEpoch !== guess.globalEpoch
      ) {
        counts.stale++;
        throw new StaleLiveState();
      }
      counts.confirmed++;
    },
    async runNow() {
      check.settle(await rowsOf<Record<string, unknown>>(s.db, liveQuery(s, claims)));
    },
  };
  return { state: guess.state, check };
}

function sameState(a: LiveState, b: LiveState): boolean {
  return (
    a.deptId === b.deptId &&
    a.mustChange === b.mustChange &&
    (a.regionCode ?? null) === (b.regionCode ?? null) &&
    (a.clientInfoId ?? null) === (b.clientInfoId ?? null) &&
    a.roleIds.length === b.roleIds.length &&
    a.roleIds.every((r, i) => r === b.roleIds[i])
  );
}

type Guess = { userId: string; tenantId: string; state: LiveState; epoch: bigint; globalEpoch: bigint };

/** Sessions whose last live state a server keeps at most (the oldest goes first). */
const MAX_GUESSES = 20_000;

/** The last live state this server read per session, with the cache epochs read with it (`speculate`). */
export class LiveGuesses {
  private readonly bySid = new Map<string, Guess>();
  /**
   * Requests offered a guess, and how the checks of those admitted on it ended: confirmed, stale (admitted again and
   * run again) or refused (401). A guess that did not admit (a refusal is decided live) ends in none of them.
   */
  readonly counts = { guessed: 0, confirmed: 0, stale: 0, refused: 0 };

  of(claims: AccessClaims): Guess | undefined {
    const g = this.bySid.get(claims.sid);
    return g && g.userId === claims.userId && g.tenantId === claims.tenantId ? g : undefined;
  }

  keep(claims: AccessClaims, state: LiveState, epoch: bigint, globalEpoch: bigint): Guess {
    const guess = { userId: claims.userId, tenantId: claims.tenantId, state, epoch, globalEpoch };
    this.bySid.delete(claims.sid);
    if (this.bySid.size >= MAX_GUESSES) this.bySid.delete(this.bySid.keys().next().value!);
    this.bySid.set(claims.sid, guess);
    return guess;
  }

  drop(sid: string): void {
    this.bySid.delete(sid);
  }
}
