import pg from 'pg';
import { CONNECT_TIMEOUT_MS, type Db } from '../db/client.ts';
import type { PgliteThread } from '../db/pglite-thread.ts';
import { GLOBAL_SCOPE } from './cache.ts';
import type { LiveState } from './live.ts';
import type { AccessClaims } from './tokens.ts';

/**
 * The live state held in memory (docs/server.md "Live state and cache epochs"): what `atrium_live_state` answered
 * per session, kept while this server is told of every committed write that could change it. The triggers of
 * db/migrations/0036_live_events.sql NOTIFY on this channel inside the writing transaction, so an event is delivered
 * at its commit and never for a rolled-back write.
 */
export const LIVE_CHANNEL = 'atrium_live';

/** Sessions whose live state a server holds at most (the oldest goes first). */
const MAX_SESSIONS = 20_000;

type Held = {
  userId: string;
  tenantId: string;
  state: LiveState;
  /** When the session ends and the tenant expires (ms since 1970; null: never). */
  sessionExpires: number;
  tenantExpires: number | null;
};

/** What the memory answers for a token: the state, and the cache epochs as they are now. */
export type HeldLive = { state: LiveState; epoch: bigint; globalEpoch: bigint };

/**
 * The live state of the sessions this server has admitted, and the cache epochs, trusted only while the events of
 * every writer reach it: on PGlite from the start (one server per data dir, so its own writes are the only ones), on
 * PostgreSQL while its LISTEN connection is up. Dropped whole when that trust is lost or regained; a session is
 * dropped by an event naming it, its user or its tenant, and filled again by the next live-state query.
 */
export class LiveMemory {
  private trusted = false;
  /** Moves on at every event that drops something and at every change of trust: a fill begun before is not kept. */
  private generation = 0;
  private readonly sessions = new Map<string, Held>();
  private readonly byUser = new Map<string, Set<string>>();
  private readonly byTenant = new Map<string, Set<string>>();
  private readonly epochs = new Map<string, bigint>();
  /**
   * Told of each event naming a tenant (`t:<tenant>`) and, with null, of anything that may have missed some (a
   * truncate, the events trusted again after a gap): the tenant routing table reloads from them (docs/tenants.md).
   */
  readonly tenantListeners = new Set<(tenantId: string | null) => void>();
  /**
   * Told of each event of a reference table's epoch (`e:ref:<table>:<n>`, db/migrations/0050_move_recovery.sql) and
   * of anything that may have missed some: the data sources' copies are brought in step (docs/tenants.md).
   */
  readonly referenceListeners = new Set<() => void>();
  /** Requests answered from memory, live-state queries made, events received. */
  readonly counts = { answered: 0, queried: 0, events: 0 };

  get isTrusted(): boolean {
    return this.trusted;
  }

  /**
   * The held live state of a token, while trusted and while the session has not ended nor the tenant expired at
   * `now`; undefined sends the request to the live-state query (which also decides every refusal).
   */
  answer(claims: AccessClaims, now: number): HeldLive | undefined {
    if (!this.trusted) return undefined;
    const held = this.sessions.get(claims.sid);
    if (!held || held.userId !== claims.userId || held.tenantId !== claims.tenantId) return undefined;
    if (held.sessionExpires < now || (held.tenantExpires !== null && held.tenantExpires < now)) return undefined;
    const epoch = this.epochs.get(held.tenantId);
    const globalEpoch = this.epochs.get(GLOBAL_SCOPE);
    if (epoch === undefined || globalEpoch === undefined) return undefined;
    return { state: held.state, epoch, globalEpoch };
  }

  /** Taken before a live-state query: `keep` then keeps its answer only if nothing was dropped meanwhile. */
  mark(): number {
    return this.trusted ? this.generation : -1;
  }

  /** Keeps what a live-state query begun at `mark` admitted. */
  keep(
    mark: number,
    claims: AccessClaims,
    state: LiveState,
    times: { sessionExpires: number; tenantExpires: number | null },
    epoch: bigint,
    globalEpoch: bigint,
  ): void {
    if (!this.trusted || mark !== this.generation || !Number.isFinite(times.sessionExpires)) return;
    this.noteEpoch(claims.tenantId, epoch);
    this.noteEpoch(GLOBAL_SCOPE, globalEpoch);
    this.drop(claims.sid);
    if (this.sessions.size >= MAX_SESSIONS) this.drop(this.sessions.keys().next().value!);
    this.sessions.set(claims.sid, { userId: claims.userId, tenantId: claims.tenantId, state, ...times });
    index(this.byUser, claims.userId, claims.sid);
    index(this.byTenant, claims.tenantId, claims.sid);
  }

  /** An event of the channel (the payloads of db/migrations/0036_live_events.sql). */
  apply(payload: string): void {
    if (payload[0] === 't' || payload[0] === 'x')
      for (const l of this.tenantListeners) l(payload[0] === 't' ? payload.slice(2) : null);
    if (payload[0] === 'x' || payload.startsWith('e:ref:')) for (const l of this.referenceListeners) l();
    if (!this.trusted) return;
    this.counts.events++;
    const kind = payload[0];
    const key = payload.slice(2);
    if (kind === 'e') {
      const at = key.lastIndexOf(':');
      if (at > 0 && /^\d+$/.test(key.slice(at + 1))) return this.noteEpoch(key.slice(0, at), BigInt(key.slice(at + 1)));
      return this.forget();
    }
    this.generation++;
    if (kind === 's') this.drop(key);
    else if (kind === 'u') for (const sid of [...(this.byUser.get(key) ?? [])]) this.drop(sid);
    else if (kind === 't') for (const sid of [...(this.byTenant.get(key) ?? [])]) this.drop(sid);
    else this.forget();
  }

  /** The events may have been missed (the LISTEN connection is down): nothing held is answered until `trust`. */
  distrust(): void {
    this.trusted = false;
    this.forget();
  }

  /** The events reach this server (again): it starts empty and fills by the query. */
  trust(): void {
    this.forget();
    this.trusted = true;
    for (const l of this.tenantListeners) l(null);
    for (const l of this.referenceListeners) l();
  }

  private forget(): void {
    this.generation++;
    this.sessions.clear();
    this.byUser.clear();
    this.byTenant.clear();
    this.epochs.clear();
  }

  private noteEpoch(scope: string, epoch: bigint): void {
    const known = this.epochs.get(scope);
    if (known === undefined || epoch > known) this.epochs.set(scope, epoch);
  }

  private drop(sid: string): void {
    const held = this.sessions.get(sid);
    if (!held) return;
    this.sessions.delete(sid);
    unindex(this.byUser, held.userId, sid);
    unindex(this.byTenant, held.tenantId, sid);
  }
}

function index(map: Map<string, Set<string>>, key: string, sid: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(sid);
}
function unindex(map: Map<string, Set<string>>, key: string, sid: string): void {
  const set = map.get(key);
  if (set?.delete(sid) && !set.size) map.delete(key);
}

/** The memories of the servers on one database (tests run two apps on one PGlite, or on one pool). */
type Watch = {
  memories: Set<LiveMemory>;
  up: boolean;
  ready: Promise<void>;
  /** PostgreSQL: the backend process of the LISTEN connection, while it is up. */
  listenerPid?: () => number | undefined;
  stop(): Promise<void>;
};
const watches = new WeakMap<object, Watch>();

/** The driver client under `db` (a pg.Pool or a PgliteThread), the key of its watch. */
// `Db` serves both drivers and so leaves out the `$client` drizzle sets on every database it makes.
const driverOf = (db: Db): object => (db as unknown as { $client: object }).$client;

/** The backend process id node-postgres keeps on a connected client (@types/pg leaves `processID` out). */
function processIdOf(c: pg.ClientBase | null): number | undefined {
  const pid = c && 'processID' in c ? c.processID : undefined;
  return typeof pid === 'number' ? pid : undefined;
}

/**
 * Feeds `memory` with the events of `db` until the returned function is called (at the app's close):
 *
 * - PGlite: LISTEN on the embedded database (through its thread, db/pglite-thread.ts). A notification is handed over while the statement that commits it is
 *   answered, so a write's event is applied before its caller goes on: the next request sees it.
 * - PostgreSQL: a connection of its own LISTENs to every server's writes (delivered within milliseconds of their
 *   commit); while it is down the memory is not trusted (every request makes the query), and when it is back the
 *   memory starts empty. Each pooled connection LISTENs too, for the events of its own transactions: PostgreSQL
 *   delivers them before it answers the commit, so this server's own writes count at its next request.
 */
export async function watchLive(db: Db, memory: LiveMemory): Promise<() => Promise<void>> {
  const client = driverOf(db);
  let watch = watches.get(client);
  if (!watch) {
    watch = client instanceof pg.Pool ? watchPostgres(client) : await watchPglite(client);
    watches.set(client, watch);
  }
  const w = watch;
  w.memories.add(memory);
  if (w.up) memory.trust();
  // The first connection attempt is waited for (a server starts with its memory trusted when it can be).
  await w.ready;
  return async () => {
    memory.distrust();
    w.memories.delete(memory);
    if (w.memories.size) return;
    watches.delete(client);
    await w.stop();
  };
}

/** The backend process id of the LISTEN connection of `db`'s servers (PostgreSQL, while it is up): for tests. */
export function liveListenerPid(db: Db): number | undefined {
  return watches.get(driverOf(db))?.listenerPid?.();
}

async function watchPglite(client: object): Promise<Watch> {
  const memories = new Set<LiveMemory>();
  const unlisten = await (client as PgliteThread).listen(LIVE_CHANNEL, (payload) => {
    for (const m of memories) m.apply(payload);
  });
  return {
    memories,
    up: true,
    ready: Promise.resolve(),
    stop: async () => {
      await unlisten().catch(() => {});
    },
  };
}

/** How long the LISTEN connection waits before connecting again, at most. */
const MAX_RECONNECT_MS = 2000;
/**
 * The heartbeat of the LISTEN connection (docs/server.md "Live state and cache epochs"): while it is up, a `select 1`
 * on it every HEARTBEAT_MS, to be answered within HEARTBEAT_MS — else the connection counts as lost. A connection
 * that died without a word (no FIN, no error: a vanished host, a dropped route) is so noticed within 2 s, not at
 * TCP keep-alive's pace.
 */
export const HEARTBEAT_MS = 1000;

/**
 * Runs `sql` on `c`, failing when no answer came within `ms`. The deadline is checked after the event loop's next
 * I/O poll (setImmediate), so a loop held up by other work does not count an answer already received as late.
 */
function ask(c: pg.Client, sql: string, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const late = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return;
          settled = true;
          reject(new Error(`no answer within ${ms} ms`));
        }),
      ms,
    );
    late.unref();
    c.query(sql).then(
      (r) => {
        clearTimeout(late);
        if (!settled) resolve(r);
        settled = true;
      },
      (e: unknown) => {
        clearTimeout(late);
        if (!settled) reject(e);
        settled = true;
      },
    );
  });
}

function watchPostgres(pool: pg.Pool): Watch {
  const memories = new Set<LiveMemory>();
  const each = (f: (m: LiveMemory) => void) => {
    for (const m of memories) f(m);
  };
  let stopped = false;
  let listener: pg.Client | null = null;
  let timer: NodeJS.Timeout | undefined;
  let beat: NodeJS.Timeout | undefined;
  let delay = 50;
  let settleFirst = () => {};
  const watch: Watch = {
    memories,
    up: false,
    ready: new Promise<void>((resolve) => (settleFirst = resolve)),
    listenerPid: () => (watch.up ? processIdOf(listener) : undefined),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(beat);
      pool.removeListener('acquire', onAcquire);
      const c = listener;
      listener = null;
      await c?.end().catch(() => {});
    },
  };
  const down = (c: pg.Client) => {
    if (listener !== c) return;
    listener = null;
    clearTimeout(beat);
    watch.up = false;
    settleFirst();
    each((m) => m.distrust());
    c.end().catch(() => {});
    if (stopped) return;
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, MAX_RECONNECT_MS);
  };
  const connect = () => {
    if (stopped) return;
    const c = new pg.Client({
      connectionString: pool.options.connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'atrium-live',
    });
    listener = c;
    c.on('error', () => down(c));
    c.on('end', () => down(c));
    c.on('notification', (n) => {
      // This pool's own transactions' events were applied at their commit (below): once is enough, and a late
      // second copy would drop what was filled since.
      if (n.channel === LIVE_CHANNEL && n.payload !== undefined && !ownPids.has(n.processId))
        each((m) => m.apply(n.payload!));
    });
    // Trusted only once PostgreSQL has confirmed the LISTEN: every commit from then on is told on this connection,
    // and the memory starts empty, so what it answers is read again by the live-state queries made after this point.
    c.connect()
      .then(() => ask(c, `LISTEN ${LIVE_CHANNEL}`, CONNECT_TIMEOUT_MS))
      .then(
        () => {
          if (listener !== c) return;
          delay = 50;
          watch.up = true;
          settleFirst();
          each((m) => m.trust());
          heartbeat(c);
        },
        () => down(c),
      );
  };
  // One question at a time: the next is asked HEARTBEAT_MS after the last answer.
  const heartbeat = (c: pg.Client) => {
    beat = setTimeout(() => {
      if (listener !== c) return;
      ask(c, 'select 1', HEARTBEAT_MS).then(
        () => {
          if (listener === c) heartbeat(c);
        },
        () => down(c),
      );
    }, HEARTBEAT_MS);
    beat.unref();
  };
  // The pooled connections LISTEN for their own transactions' events, from their first checkout on.
  const listening = new WeakSet<pg.PoolClient>();
  const ownPids = new Set<number | undefined>();
  const onAcquire = (c: pg.PoolClient) => {
    if (listening.has(c)) return;
    listening.add(c);
    const own = processIdOf(c);
    ownPids.add(own);
    c.once('end', () => ownPids.delete(own));
    c.on('notification', (n) => {
      if (n.channel === LIVE_CHANNEL && n.processId === own && n.payload !== undefined)
        each((m) => m.apply(n.payload!));
    });
    c.query(`LISTEN ${LIVE_CHANNEL}`).catch(() => {});
  };
  pool.on('acquire', onAcquire);
  connect();
  return watch;
}
