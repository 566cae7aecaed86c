import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import pg from 'pg';
import { and, eq, isNotNull, or, sql } from 'drizzle-orm';
import { Counter } from 'prom-client';
import { connectionStringOf, openDatabase, type Database, type Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { tenant } from '../../db/schema/index.ts';
import { PLATFORM_TENANT } from '../../platform/access.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { jobLockKey } from '../../platform/singleton.ts';
import { tenantRoutesOf } from '../../platform/tenant-route.ts';
import { connectionOf } from '../datasource/index.ts';
import { tenantTexts as texts } from './messages.ts';
import { clientOf, copyTable, syncReference } from './reference.ts';
import { deleteTenantRows, exportTenant, importTenant, type Query } from './transfer.ts';

/**
 * A tenant on its own database (docs/tenants.md "Moving a tenant"): `bindTenant` moves the tenant's rows to a data
 * source's database and routes its transactions there (platform/tenant-route.ts); binding to none moves them back.
 * The data sources' pools are the app's, opened lazily and closed when no tenant uses them.
 */

/** How long a move waits for this server's transactions of the tenant to end, and for other servers to hear. */
const DRAIN_MS = 10_000;
const HEAR_MS = 300;

/**
 * The global queues whose rows carry a tenant's work (docs/tenants.md "Background work"): written in the tenant's
 * transaction, so on its database; a move carries the tenant's rows of them along.
 */
const QUEUES = ['flow_timer', 'outbox_job', 'attach_removal'];

/** The data sources' databases of one app, by data source id. */
type Pools = Map<string, Promise<Database>>;
const poolsOf = new WeakMap<Services, Pools>();
const pools = (s: Services): Pools => {
  let p = poolsOf.get(s);
  if (!p) poolsOf.set(s, (p = new Map()));
  return p;
};

/** The database of a data source (its pool opened on first use). */
async function databaseOf(s: Services, datasourceId: string): Promise<Database> {
  const p = pools(s);
  let open = p.get(datasourceId);
  if (!open) {
    // The same migrations, roles and row-level security as the main database (under its start-up lock), at each
    // opening: a data source follows the schema of the servers using it.
    open = connectionOf(s, s.db, datasourceId).then(async ({ url }) => {
      const database = await openDatabase({ databaseUrl: url, poolSize: 5 });
      try {
        await database.exclusive(() => database.migrate());
        return database;
      } catch (err) {
        await database.close().catch(() => {});
        throw err;
      }
    });
    p.set(datasourceId, open);
    open.catch(() => p.delete(datasourceId));
  }
  return open;
}

/** Closes the pools no bound tenant uses. */
async function closeUnused(s: Services, keep: Set<string>) {
  for (const [id, open] of pools(s))
    if (!keep.has(id)) {
      pools(s).delete(id);
      await (await open.catch(() => undefined))?.close().catch(() => {});
    }
}

/** Closes every data source pool of the app (its close hook). */
export async function closeTenantPools(s: Services) {
  await closeUnused(s, new Set());
}

/**
 * Reads the binding of one tenant (or, with null, of every tenant) from the main database into this server's routing
 * table: at start, and at each live event of the tenant table (another server bound, unbound or began a move).
 */
export async function loadTenantRoutes(s: Services, tenantId: string | null): Promise<void> {
  if (!connectionStringOf(s.db)) return;
  const rows = await s.db
    .select({ tenantId: tenant.tenantId, datasourceId: tenant.datasourceId, moveState: tenant.moveState })
    .from(tenant)
    .where(
      tenantId
        ? eq(tenant.tenantId, tenantId)
        : and(eq(tenant.isDeleted, 0), or(isNotNull(tenant.datasourceId), isNotNull(tenant.moveState))),
    );
  const routes = tenantRoutesOf(s.db);
  if (!tenantId) {
    routes.databases.clear();
    routes.moving.clear();
  }
  for (const r of rows) {
    if (r.moveState) routes.moving.add(r.tenantId);
    else routes.moving.delete(r.tenantId);
    if (r.datasourceId) routes.databases.set(r.tenantId, (await databaseOf(s, r.datasourceId)).db);
    else routes.databases.delete(r.tenantId);
  }
  if (tenantId && !rows.length) {
    routes.moving.delete(tenantId);
    routes.databases.delete(tenantId);
  }
}

/** What a move did, and how long it took. */
export type MoveResult = { tenantId: string; datasourceId: string | null; rows: number; ms: number };

/** The tenants this app is moving right now (its recovery check leaves them alone). */
const movingHereOf = new WeakMap<Services, Set<string>>();
const movingHere = (s: Services): Set<string> => {
  let m = movingHereOf.get(s);
  if (!m) movingHereOf.set(s, (m = new Set()));
  return m;
};

/**
 * The move's advisory lock (docs/tenants.md "A move that dies"), session-level on a connection of its own to the main
 * database: held by the server moving the tenant from before the moving mark is set until after it is cleared, and
 * released by PostgreSQL when that server's connection drops — its process killed included. `tries` attempts 100 ms
 * apart (a recovery check holds it for a moment). Null: another server holds it.
 */
async function takeMoveLock(url: string, tenantId: string, tries: number): Promise<pg.Client | null> {
  const c = new pg.Client({ connectionString: url, application_name: 'atrium-move', connectionTimeoutMillis: 5000 });
  c.on('error', () => {});
  await c.connect();
  // PostgreSQL's side of the connection probes a silent peer (a vanished host) and ends it within ~11 s, the lock
  // with it; a killed process's connection ends at once (docs/tenants.md "A move that dies").
  await c.query('set tcp_keepalives_idle = 5; set tcp_keepalives_interval = 2; set tcp_keepalives_count = 3');
  const key = String(jobLockKey('tenant-move', tenantId));
  for (let i = 0; i < tries; i++) {
    if (i) await new Promise((r) => setTimeout(r, 100));
    const got = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [key]);
    if (got.rows[0].ok) return c;
  }
  await c.end().catch(() => {});
  return null;
}

/**
 * A move's end decided by the tenant row alone, by the holder of the move's lock: the binding (`datasource_id`)
 * names the database holding the tenant's rows, every step of a move keeps it true (docs/tenants.md "A move that
 * dies"), and `move_other_id` the other database of the move, where a copy may be left (a committed import whose
 * binding was not recorded; the source's rows of a recorded binding not yet deleted): deleted there, then the mark
 * cleared. Answers whether there was a mark.
 */
async function settleMove(s: Services, lk: pg.Client, tenantId: string, log?: Log): Promise<boolean> {
  const { rows } = await lk.query<{ ds: string | null; state: string | null; other: string | null }>(
    `select datasource_id::text as ds, move_state as state, move_other_id::text as other from tenant where tenant_id = $1 and is_deleted = 0`,
    [tenantId],
  );
  const row = rows[0];
  if (!row?.state) return false;
  if (row.other !== row.ds) {
    try {
      const db = row.other ? (await databaseOf(s, row.other)).db : s.db;
      // Its queue rows too: a copied timer or message must not be worked on twice.
      const n = await deleteTenantRows(db, tenantId, (q) => dropQueues(q, tenantId));
      log?.warn({ tenantId, datasourceId: row.other, rows: n }, 'a dead move: its copy deleted');
    } catch (err) {
      // The rows the binding names stand; a leftover copy that cannot be reached now never blocks the tenant.
      log?.error({ err, tenantId, datasourceId: row.other }, 'a dead move: its copy not deleted');
    }
  }
  await lk.query(`update tenant set move_state = null, move_other_id = null where tenant_id = $1 and move_state = $2`, [
    tenantId,
    row.state,
  ]);
  return true;
}

type Log = { warn: (o: object, msg: string) => void; error: (o: object, msg: string) => void };

/**
 * The tenants marked moving whose mover died (docs/tenants.md "A move that dies"): for each tenant this server's
 * routing table has as moving and is not moving itself, a transaction asks `pg_try_advisory_xact_lock` of the move's
 * key; free means no server is moving it — then the move's lock is taken and the move settled (`settleMove`), the
 * update's live event unblocking every server. Called every RECOVER_MS while a tenant is marked (module.ts).
 */
export async function recoverDeadMoves(s: Services, log: Log): Promise<string[]> {
  const url = connectionStringOf(s.db);
  if (!url) return [];
  const settled: string[] = [];
  for (const tenantId of [...tenantRoutesOf(s.db).moving]) {
    if (movingHere(s).has(tenantId)) continue;
    const key = String(jobLockKey('tenant-move', tenantId));
    const free = await s.db.transaction(async (tx) => {
      const [r] = await rowsOf<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${key}::bigint) as ok`);
      return !!r?.ok;
    });
    if (!free) continue;
    const lk = await takeMoveLock(url, tenantId, 1);
    if (!lk) continue;
    try {
      if (await settleMove(s, lk, tenantId, log)) settled.push(tenantId);
    } finally {
      await lk.end().catch(() => {});
    }
    await loadTenantRoutes(s, tenantId);
    if (settled.includes(tenantId)) await tellMoved(s, tenantId, log);
  }
  if (settled.length) await closeUnused(s, new Set(await boundSources(s)));
  return settled;
}

/**
 * Moves a tenant's rows to the data source `datasourceId` (null: back to the main database), in one consistent step:
 * the move's lock taken (a move of the tenant that died is settled first), the target migrated and its reference data
 * brought in step, the tenant marked moving (its requests answered 503), this server's transactions of it waited
 * for, its rows exported from one snapshot and imported in one transaction, the binding recorded, the source's rows
 * deleted, the moving mark taken away (docs/tenants.md "Moving a tenant").
 */
export async function bindTenant(
  s: Services,
  tenantId: string,
  datasourceId: string | null,
  log?: Log,
): Promise<MoveResult> {
  const started = Date.now();
  const url = connectionStringOf(s.db);
  if (!url) throw badRequest(texts.embeddedNoMove);
  if (tenantId === PLATFORM_TENANT) throw badRequest(texts.importPlatform);
  const lk = await takeMoveLock(url, tenantId, 10);
  if (!lk) throw new AppError(409, texts.moveRunning);
  movingHere(s).add(tenantId);
  try {
    // A move of this tenant that died (its lock is ours now): its copy deleted, its mark cleared.
    if (await settleMove(s, lk, tenantId, log)) await loadTenantRoutes(s, tenantId);
    const [row] = await s.db
      .select({ datasourceId: tenant.datasourceId })
      .from(tenant)
      .where(and(eq(tenant.tenantId, tenantId), eq(tenant.isDeleted, 0)))
      .limit(1);
    if (!row) throw new AppError(404, texts.importUnknownTenant);
    const from = row.datasourceId ?? null;
    if (from === datasourceId) return { tenantId, datasourceId, rows: 0, ms: 0 };
    const source = from ? (await databaseOf(s, from)).db : s.db;
    let target: Db = s.db;
    if (datasourceId) {
      // Migrated when its pool opened (`databaseOf`); the reference data brought in step, the tenant's row with it.
      target = (await databaseOf(s, datasourceId)).db;
      await syncReference(url, connectionStringOf(target)!, datasourceId, { include: tenantId, wait: true });
    }
    const rows = await moveRows(s, lk, { tenantId, from, to: datasourceId, source, target });
    await closeUnused(s, new Set(await boundSources(s)));
    await tellMoved(s, tenantId, log);
    return { tenantId, datasourceId, rows, ms: Date.now() - started };
  } finally {
    movingHere(s).delete(tenantId);
    await lk.end().catch(() => {});
  }
}

type Move = { tenantId: string; from: string | null; to: string | null; source: Db; target: Db };

/**
 * The steps of a move under its lock `lk` (docs/tenants.md "Moving a tenant"). The mark is a token of this move; each
 * later write of the tenant row is made only while the row still carries it, so a move whose lock was lost (its
 * connection dropped, the move settled by another server) changes nothing more.
 */
async function moveRows(s: Services, lk: pg.Client, m: Move): Promise<number> {
  const { tenantId, from, to } = m;
  const token = `m${randomBytes(7).toString('hex')}`;
  const fenced = async (q: Query, set: string, values: unknown[]) => {
    const r = await q(`update tenant set ${set} where tenant_id = $1 and move_state = $2 returning 1 as ok`, [
      tenantId,
      token,
      ...values,
    ]);
    if (!r.length) throw new Error(`the move of tenant ${tenantId} was settled by another server`);
  };
  const onLk: Query = async (text, values) => (await lk.query(text, values)).rows;
  // Moving: refused everywhere from now on (this server at once, the others at the live event of the update). If
  // this move dies now, a copy can be left on the target only.
  const marked = await lk.query(
    `update tenant set move_state = $1, move_other_id = $2 where tenant_id = $3 and is_deleted = 0`,
    [token, to, tenantId],
  );
  if (!marked.rowCount) throw new AppError(404, texts.importUnknownTenant);
  const routes = tenantRoutesOf(s.db);
  routes.moving.add(tenantId);
  try {
    await drained(routes.running, tenantId);
    const rows = await copyTenant(m.source, m.target, tenantId);
    await copyQueues(m.source, m.target, tenantId);
    if (!from) {
      // From the main database: its rows go and the binding is recorded in one transaction, the mark cleared with it.
      await deleteTenantRows(s.db, tenantId, async (q) => {
        await dropQueues(q, tenantId);
        await fenced(q, 'datasource_id = $3, move_state = null, move_other_id = null', [to]);
      });
    } else {
      // From a data source: the binding recorded first (the source now the copy a death would leave), then the
      // source's rows deleted, then the mark cleared.
      await fenced(onLk, 'datasource_id = $3, move_other_id = $4', [to, from]);
      await deleteTenantRows(m.source, tenantId, (q) => dropQueues(q, tenantId));
      await fenced(onLk, 'move_state = null, move_other_id = null', []);
    }
    if (to) routes.databases.set(tenantId, m.target);
    else routes.databases.delete(tenantId);
    routes.moving.delete(tenantId);
    return rows;
  } catch (err) {
    // As after a death: the binding decides, the other database's copy goes, the mark is cleared.
    await settleMove(s, lk, tenantId).catch(() => {});
    await loadTenantRoutes(s, tenantId).catch(() => {});
    throw err;
  }
}

async function boundSources(s: Services): Promise<string[]> {
  const rows = await s.db
    .selectDistinct({ id: tenant.datasourceId })
    .from(tenant)
    .where(and(isNotNull(tenant.datasourceId), eq(tenant.isDeleted, 0)));
  return rows.map((r) => String(r.id));
}

/** Waits for this server's transactions of the tenant to end, then a moment for the other servers to hear. */
async function drained(running: Map<string, number>, tenantId: string) {
  const until = Date.now() + DRAIN_MS;
  while ((running.get(tenantId) ?? 0) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, HEAR_MS));
}

/** The tenant's export from `source` piped into an import on `target` (replacing what a failed attempt left). */
async function copyTenant(source: Db, target: Db, tenantId: string): Promise<number> {
  const pipe = new PassThrough();
  const lines = createInterface({ input: pipe, crlfDelay: Infinity });
  const writing = exportTenant(source, tenantId, async (text) => {
    if (!pipe.write(text)) await once(pipe, 'drain');
  }).then(
    (r) => {
      pipe.end();
      return r;
    },
    (err: unknown) => {
      pipe.end();
      throw err;
    },
  );
  const [written, read] = await Promise.allSettled([writing, importTenant(target, tenantId, lines, { replace: true })]);
  if (written.status === 'rejected') throw written.reason;
  if (read.status === 'rejected') throw read.reason;
  return read.value.rows;
}

/** How often a server checks the tenants marked moving for a mover that died, while any is marked. */
/** What the other modules keep of a tenant on the main database follows its move (`Registry.tenantMoved`). */
async function tellMoved(s: Services, tenantId: string, log?: Log) {
  await s.registry.tenantMoved?.(tenantId).catch((err: unknown) => log?.warn({ err, tenantId }, 'moved: not told'));
}

export const RECOVER_MS = 1500;

/**
 * Checks every RECOVER_MS, while this server's routing table has a tenant marked moving (filled at start and by the
 * live events), whether its mover still lives (`recoverDeadMoves`). Answers the stop of the check.
 */
export function watchDeadMoves(s: Services, log: Log): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy || !tenantRoutesOf(s.db).moving.size) return;
    busy = true;
    recoverDeadMoves(s, log)
      .catch((err: unknown) => log.error({ err }, 'dead moves not checked'))
      .finally(() => (busy = false));
  }, RECOVER_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** How soon a sync follows the event of a change (a burst of writes makes one), and how soon it is tried again. */
const SYNC_DELAY_MS = 50;
const SYNC_BUSY_MS = 1000;
const SYNC_FAILED_MS = 10_000;

/**
 * Keeps the reference data of every data source a tenant lives on in step with the main database (docs/tenants.md
 * "Reference data on a data source"). `request` is called at each event of a reference table's epoch (LiveMemory's
 * `referenceListeners`), when the events were trusted again, and at start: each bound data source whose copy is
 * older (its `synced:` epochs against the main database's `ref:` ones, read on the pools) is synced — once per
 * cluster: a server finding another one syncing it tries again SYNC_BUSY_MS later, when it finds it in step.
 */
export function keepReferenceInStep(s: Services, log: Log & { info: (o: object, msg: string) => void }) {
  // What each data source's check found (docs/deploy.md "Metrics"): in step, copied, another server at it, failed.
  const syncs = new Counter({
    name: 'atrium_tenant_reference_syncs_total',
    help: "Checks of a data source's reference data by result: same, copied, busy (another server), failed",
    labelNames: ['result'] as const,
    registers: [s.metrics],
  });
  const copied = new Counter({
    name: 'atrium_tenant_reference_rows_total',
    help: 'Reference rows this server copied to data sources',
    registers: [s.metrics],
  });
  let timer: NodeJS.Timeout | undefined;
  let dueAt = 0;
  let running = false;
  let again = false;
  let stopped = false;
  const request = (delay = SYNC_DELAY_MS) => {
    if (stopped || !connectionStringOf(s.db)) return;
    if (running) {
      again = true;
      return;
    }
    if (timer && dueAt <= Date.now() + delay) return;
    clearTimeout(timer);
    dueAt = Date.now() + delay;
    timer = setTimeout(() => void run(), delay);
    timer.unref();
  };
  const run = async () => {
    timer = undefined;
    running = true;
    again = false;
    let retry: number | undefined;
    try {
      for (const id of await boundSources(s)) {
        try {
          const done = await syncOne(s, id, log);
          syncs.inc({ result: done === 'busy' || done === 'same' ? done : 'copied' });
          if (typeof done === 'number') copied.inc(done);
          if (done === 'busy') retry = SYNC_BUSY_MS;
        } catch (err) {
          syncs.inc({ result: 'failed' });
          log.error({ err, datasourceId: id }, 'reference data not synced');
          retry ??= SYNC_FAILED_MS;
        }
      }
    } catch (err) {
      log.error({ err }, 'reference data not synced');
      retry = SYNC_FAILED_MS;
    }
    running = false;
    if (again) request();
    else if (retry !== undefined) request(retry);
  };
  return {
    request: () => request(),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * One data source's reference data brought in step if it is behind: 'same' when it was not, 'busy' when another
 * server is at it, else the rows copied.
 */
async function syncOne(s: Services, datasourceId: string, log: { info: (o: object, msg: string) => void }) {
  const target = (await databaseOf(s, datasourceId)).db;
  const epochs = (db: Db, prefix: string) =>
    rowsOf<{ scope: string; epoch: string }>(
      db,
      sql`select substr(scope, ${prefix.length + 1}) as scope, epoch::text as epoch from cache_epoch where scope like ${`${prefix}%`}`,
    );
  const [main, held] = await Promise.all([epochs(s.db, 'ref:'), epochs(target, 'synced:')]);
  const heldBy = new Map(held.map((r) => [r.scope, r.epoch]));
  if (main.every((r) => heldBy.get(r.scope) === r.epoch)) return 'same';
  const done = await syncReference(connectionStringOf(s.db)!, connectionStringOf(target)!, datasourceId);
  if (!done.ran) return 'busy';
  if (!done.tables.length) return 'same';
  log.info({ datasourceId, tables: done.tables, rows: done.rows, ms: done.ms }, 'reference data synced');
  return done.rows;
}

/**
 * The tenant's rows of the global queues (docs/tenants.md "Background work"): a timer, a message or a removal queued
 * before the move is worked on where the tenant now lives. Copied to the target in one transaction with their claims
 * cleared (a claim of the source ends with the tenant's 503 while it moves); the source's go with its tenant rows.
 */
async function copyQueues(source: Db, target: Db, tenantId: string) {
  const a = clientOf(connectionStringOf(source)!);
  const b = clientOf(connectionStringOf(target)!);
  await Promise.all([a.connect(), b.connect()]);
  try {
    await a.query('begin isolation level repeatable read read only');
    await b.query('begin');
    await b.query('set local session_replication_role = replica');
    for (const table of QUEUES) {
      await copyTable(a, b, table, [tenantId]);
      await b.query(`update "${table}" set locked_until = null, locked_by = null where tenant_id = $1`, [tenantId]);
    }
    await b.query('commit');
    await a.query('commit');
  } catch (err) {
    await b.query('rollback').catch(() => {});
    throw err;
  } finally {
    await Promise.all([a.end().catch(() => {}), b.end().catch(() => {})]);
  }
}

/** The source's queue rows of the tenant, deleted in the caller's transaction (with its tenant rows). */
async function dropQueues(q: (text: string, values?: unknown[]) => Promise<unknown>, tenantId: string) {
  for (const table of QUEUES) await q(`delete from "${table}" where tenant_id = $1`, [tenantId]);
}
