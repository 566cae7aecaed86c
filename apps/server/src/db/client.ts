// The PostgreSQL driver stays node-postgres with the hand-written pipelined transactions below and the renderer of
// db/render.ts (issue 25 §5): drizzle's postgres-js driver with drizzle's own rendering, measured against them with
// bench/ab.ts (calls in turn, same build, same 1 M-client database), was 1.86-2.08x slower at p50 on the client page
// (page 1: 30.0 -> 62.3 ms, page 100: 42.0 -> 78.1 ms on a host at load 33) and took 1.2-1.8x the server CPU per
// call — beyond the 10 % the issue allows. Figures and how to reproduce: bench-results/2026-11-27-driver-ab.md.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index.ts';
import { gatePool, type FairGate } from './fair-gate.ts';
import { Availability } from './availability.ts';
import { PgliteThread } from './pglite-thread.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /**
   * Runs `fn` while no other server starting on the same database runs it (migrate + seed at start-up): on
   * PostgreSQL under a session advisory lock held by a connection of its own; on PGlite the data dir lock already
   * keeps every other server out.
   */
  exclusive<T>(fn: () => Promise<T>, onWait?: () => void): Promise<T>;
  /** Up or down (docs/server.md "Database outages"): down from the first connection error until a probe connects. */
  availability: Availability;
  close(): Promise<void>;
};

const availabilities = new WeakMap<Db, Availability>();
/** The availability of the database `db` belongs to (undefined for a database not opened by `openDatabase`). */
export function availabilityOf(db: Db): Availability | undefined {
  return availabilities.get(db);
}

const urls = new WeakMap<Db, string>();
/**
 * The connection string of a PostgreSQL database opened by `openDatabase` (undefined on PGlite): for the work that
 * needs a connection of its own outside the pool, such as a tenant's export and import with COPY (docs/tenants.md).
 */
export function connectionStringOf(db: Db): string | undefined {
  return urls.get(db);
}

const gates = new WeakMap<Db, FairGate>();
/** The fair gate the statements on `db` pass (the pool's, or the embedded database's; docs/server.md "Under load"). */
export function gateOf(db: Db): FairGate | undefined {
  return gates.get(db);
}

/** How long a new PostgreSQL connection may take before the attempt fails (and the caller gets its 503). */
export const CONNECT_TIMEOUT_MS = 5000;
/** How long a probe of a down database may take. */
const PROBE_TIMEOUT_MS = 2000;

/** The advisory lock key of start-up (migrate + seed): "atrium" in ASCII. */
export const STARTUP_LOCK_KEY = 0x61747269756dn;

/** A second server on an embedded data dir that another live process holds. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number | null,
    readonly file: string,
  ) {
    super(
      `The data directory ${dir} is in use by another Atrium server (${pid === null ? 'a process that is starting' : `process ${pid}`}). ` +
        `Stop that server first, or point ATRIUM_DATA_DIR elsewhere. If no such process is running, remove ${file}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** What is wrong with the disk of an embedded data dir. */
export type DiskProblem = 'full' | 'read-only' | 'denied';

/**
 * The embedded data dir cannot be used (docs/server.md "Start on a bad disk"): its disk is full, it is read-only, or
 * this user may not write there. The message names the cause and the path; the start leaves nothing behind.
 */
export class DataDirError extends Error {
  constructor(
    readonly dir: string,
    readonly problem: DiskProblem,
  ) {
    const what = {
      full: `the disk holding ${dir} is full (no space left on device)`,
      'read-only': `${dir} is on a read-only file system`,
      denied: `this user may not write to ${dir} (permission denied)`,
    }[problem];
    const fix = {
      full: 'Free some space on that disk',
      'read-only': 'Mount it read-write',
      denied: 'Give this user write access to it',
    }[problem];
    super(`Atrium cannot start: ${what}. ${fix}, or point ATRIUM_DATA_DIR elsewhere.`);
    this.name = 'DataDirError';
  }
}

/** Node's error codes of a disk problem. */
const NODE_DISK: Record<string, DiskProblem> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'read-only',
  EACCES: 'denied',
  EPERM: 'denied',
};
/** The same as numbers of PGlite's file system (Emscripten's errno values: ENOSPC 51, EDQUOT 19, EROFS 69, …). */
const EMSCRIPTEN_DISK: Record<number, DiskProblem> = {
  51: 'full',
  19: 'full',
  69: 'read-only',
  2: 'denied',
  63: 'denied',
};

/**
 * The disk problem an error of opening or writing the embedded database says, as a DataDirError for `dir`; null when
 * it says none. PostgreSQL's own "disk full" (SQLSTATE 53100) and its "could not write … No space left" count too.
 */
export function dataDirProblem(err: unknown, dir: string, depth = 0): DataDirError | null {
  if (err instanceof DataDirError) return err;
  if (!err || typeof err !== 'object' || depth > 6) return null;
  const e = err as { name?: unknown; code?: unknown; errno?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && NODE_DISK[e.code]) return new DataDirError(dir, NODE_DISK[e.code]);
  if (e.name === 'ErrnoError' && typeof e.errno === 'number' && EMSCRIPTEN_DISK[e.errno])
    return new DataDirError(dir, EMSCRIPTEN_DISK[e.errno]);
  if (e.code === '53100' || (typeof e.message === 'string' && /No space left on device/i.test(e.message)))
    return new DataDirError(dir, 'full');
  if (typeof e.message === 'string' && /Read-only file system/i.test(e.message))
    return new DataDirError(dir, 'read-only');
  return dataDirProblem(e.cause, dir, depth + 1);
}

/** The outermost directory `mkdir -p dir` would make (removing it removes everything it made); null when `dir` exists. */
export function firstMissingDir(dir: string): string | null {
  let missing: string | null = null;
  for (let d = path.resolve(dir); !fs.existsSync(d); d = path.dirname(d)) {
    missing = d;
    if (path.dirname(d) === d) break;
  }
  return missing;
}

/**
 * Why nothing can be written under `dir`, found by writing a byte into its nearest existing directory (a recursive
 * mkdir on a read-only file system reports ENOENT, which names nothing); null when that works.
 */
function writeProblem(dir: string): DataDirError | null {
  let at = path.resolve(dir);
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  const probe = path.join(at, `.atrium-write-${process.pid}`);
  try {
    fs.writeFileSync(probe, '1', { flag: 'wx' });
    return null;
  } catch (err) {
    return dataDirProblem(err, dir);
  } finally {
    fs.rmSync(probe, { force: true });
  }
}

/** Lock files this process holds (a second open of the same dir by this very process is refused too). */
const heldLocks = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The pid written in a lock file; null when it is empty or unreadable (being written, or a crash while writing). */
function lockHolder(file: string): { pid: number | null; ageMs: number } | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    const ageMs = Date.now() - fs.statSync(file).mtimeMs;
    return { pid: /^\d+$/.test(text) ? Number(text) : null, ageMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** An empty lock file younger than this is a process between creating it and writing its pid. */
const FRESH_EMPTY_LOCK_MS = 5000;

/**
 * Takes `<dir>/pg.lock` for this process (docs/server.md "Data dir lock"): created atomically holding the pid; a
 * lock whose process is gone is taken over (under a second guard file, so two starts cannot both take it over);
 * released by the returned function, and on exit. Hand-written on purpose: a kept lock library (proper-lockfile) keeps
 * its lock alive by touching the file and calls it abandoned only after a stale delay (10 s by default), so it could
 * neither name the holder's pid in the refusal nor take over at once from a holder that is gone — both of which
 * test/data-dir-lock.test.ts holds.
 */
function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'pg.lock');
  const refuse = (pid: number | null) => new DataDirLockedError(dir, pid, file);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644);
      try {
        fs.writeSync(fd, `${process.pid}\n`);
        fs.closeSync(fd);
      } catch (err) {
        // A full disk takes the file but not its pid: an empty lock would keep the next start out for a while.
        fs.closeSync(fd);
        fs.rmSync(file, { force: true });
        throw dataDirProblem(err, dir) ?? err;
      }
      heldLocks.add(file);
      const release = () => {
        if (!heldLocks.delete(file)) return;
        process.removeListener('exit', release);
        // Only our own lock: never one a later server took over.
        if (lockHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw dataDirProblem(err, dir) ?? err;
    }
    const holder = lockHolder(file);
    if (!holder) continue; // released meanwhile
    if (stillHeld(file, holder)) throw refuse(holder.pid);
    takeOver(file, holder.pid, refuse);
  }
  throw refuse(lockHolder(file)?.pid ?? null);
}

/**
 * Whether a lock file belongs to a live server: its pid is alive — and, when it is this process's own pid, this
 * process really holds it (a container restarted after a crash gets the same pid again).
 */
function stillHeld(file: string, holder: { pid: number | null; ageMs: number }): boolean {
  if (holder.pid === null) return holder.ageMs < FRESH_EMPTY_LOCK_MS;
  if (holder.pid === process.pid) return heldLocks.has(file);
  return isAlive(holder.pid);
}

/** Removes a stale lock, under `<lock>.takeover` (created atomically) so only one process does it. */
function takeOver(file: string, stalePid: number | null, refuse: (pid: number | null) => Error) {
  const guard = `${file}.takeover`;
  let fd: number;
  try {
    fd = fs.openSync(guard, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another start is taking it over right now; a guard left by a crash in these few lines is old.
    const age = Date.now() - fs.statSync(guard).mtimeMs;
    if (age < FRESH_EMPTY_LOCK_MS) throw refuse(stalePid);
    fs.rmSync(guard, { force: true });
    return;
  }
  try {
    const now = lockHolder(file);
    if (now && !stillHeld(file, now)) fs.rmSync(file, { force: true });
  } finally {
    fs.closeSync(fd);
    fs.rmSync(guard, { force: true });
  }
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * When the newest migration this build carries was made (its journal's `when`, which drizzle's migrator stores as
 * `created_at` in `drizzle.__drizzle_migrations`): a database whose newest applied migration is older has migrations
 * left to run (the readiness check, docs/deploy.md "Health and readiness").
 */
export function newestMigrationMillis(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

/** The statement that answers when the database's newest applied migration was made (0: none). */
export const appliedMigrationSql = sql.raw(
  'select coalesce(max(created_at), 0)::text as newest from drizzle.__drizzle_migrations',
);

/**
 * Every table with row-level security has it forced, so not even the tables' owner reads across tenants. drizzle-kit
 * enables RLS with each policy but has no word for FORCE: this idempotent step after the migrations supplies it.
 */
const forceRls = sql.raw(`DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity AND NOT c.relforcerowsecurity LOOP
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', r.relname);
  END LOOP;
END $$`);

/** PGlite in `dataDir` (or in memory when dataDir is 'memory://'), or a PostgreSQL pool when a URL is given. */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** In-memory PGlite only: start from this dumped data directory instead of an empty cluster. */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const url = opts.databaseUrl;
    const max = opts.poolSize ?? DEFAULT_POOL_SIZE;
    // Pipelined connections: statements sent back to back share one round trip (docs/server.md "Round trips").
    // A connection that cannot be made in CONNECT_TIMEOUT_MS fails (a database host that does not answer never
    // holds a request for the HTTP timeout); keep-alive notices a peer that vanished without closing.
    const pool = new pg.Pool({
      connectionString: url,
      max,
      pipeline: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    } as pg.PoolConfig);
    const availability = new Availability(() => probePostgres(url));
    // Every connection has an error path for its whole life (docs/server.md "Database outages"): the pool listens only
    // while a connection is idle, and an 'error' event nobody hears ends the process. A connection checked out for a
    // transaction when the database ends it (a restart, a terminated backend, a failover) fails its statement, and the
    // pool drops it at release; the error itself turns the database's state to down.
    pool.on('connect', (client) => client.on('error', (err) => availability.failed(err)));
    pool.on('error', (err) => availability.failed(err));
    const gate = gatePool(pool, max);
    const pgDb = drizzlePg(pool, { schema });
    const db: Db = pgDb;
    pipelined.set(db, pipelinedTransactions(pool));
    availabilities.set(db, availability);
    gates.set(db, gate);
    urls.set(db, url);
    return {
      db,
      kind: 'postgres',
      migrate: async () => {
        await migratePg(pgDb, { migrationsFolder });
        await db.execute(forceRls);
      },
      exclusive: (fn, onWait) => withAdvisoryLock(url, fn, onWait),
      availability,
      close: async () => {
        availability.close();
        await pool.end();
      },
    };
  }
  const dir = opts.dataDir ?? 'memory://';
  // PGlite runs in a worker thread (db/pglite-thread.ts, docs/server.md "Embedded database").
  let client: PgliteThread;
  let release = () => {};
  const state: { availability?: Availability } = {};
  const onStop = (err: Error) => state.availability?.failed(err);
  if (dir.startsWith('memory://')) {
    const image = opts.loadDataDir ? new Uint8Array(await opts.loadDataDir.arrayBuffer()) : undefined;
    client = new PgliteThread({ loadDataDir: image }, onStop);
    try {
      await client.waitReady;
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
  } else {
    const pgDir = path.join(dir, 'pg');
    // A data dir made by this start is removed again if the start fails: a full disk must not keep half a cluster.
    const made = firstMissingDir(pgDir);
    const undo = () => {
      release();
      if (made) fs.rmSync(made, { recursive: true, force: true });
    };
    let opening: PgliteThread | undefined;
    try {
      fs.mkdirSync(pgDir, { recursive: true });
      release = lockDataDir(dir);
      opening = new PgliteThread({ dataDir: pgDir }, onStop);
      await opening.waitReady;
      client = opening;
    } catch (err) {
      await opening?.close().catch(() => {});
      undo();
      throw dataDirProblem(err, dir) ?? writeProblem(dir) ?? err;
    }
  }
  // The worker thread stands in for PGlite with the calls drizzle's driver makes (db/pglite-thread.ts).
  const pgliteDb = drizzlePglite({ client: client as unknown as PGlite, schema });
  const db: Db = pgliteDb;
  // A disk that filled up makes statements fail until space is freed; a worker that stopped is started again by the
  // probe (a data dir) or stays down (in memory).
  const up = new Availability(async () => void (await client.query('select 1')));
  state.availability = up;
  availabilities.set(db, up);
  gates.set(db, client.gate);
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(pgliteDb, { migrationsFolder });
      await db.execute(forceRls);
    },
    exclusive: (fn) => fn(),
    availability: up,
    close: async () => {
      up.close();
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

/** A statement with its parameters. */
export type Statement = { text: string; values: unknown[] };

/**
 * Runs `fn` in a transaction whose `begin` goes out together with `first`, which runs inside the transaction (the
 * tenant context): one round trip instead of two (docs/server.md "Round trips"). By default `fn` is called once both
 * succeeded. `readOnly`: a `begin read only` transaction (a write in it fails); `fn`'s first statement goes out with
 * them too and answers only if they succeeded, and the commit is not waited for (there is nothing to make durable).
 * `single` (read-only only): `fn` makes at most one statement, and the commit goes out in the same write as it; a
 * second statement is refused with an error (it would run outside the transaction and its tenant context).
 */
export type PipelinedTransaction = <T>(
  first: Statement,
  fn: (tx: Db) => Promise<T>,
  opts?: { readOnly?: boolean; single?: boolean; also?: AlsoStatement },
) => Promise<T>;

/**
 * A statement sent in the same write as `begin` and `first` (inside the transaction, after `first`), whose rows are
 * handed to `onRows` before `fn`'s first statement answers, or before the transaction ends if `fn` made none. The
 * request's live-state check rides with a list this way (docs/server.md "Live state and cache epochs").
 */
export type AlsoStatement = { statement: Statement; onRows: (rows: Record<string, unknown>[]) => void };

const pipelined = new WeakMap<Db, PipelinedTransaction>();

/** The pipelined transaction of a PostgreSQL database; undefined on PGlite (in process: no round trip to save). */
export function pipelinedTransactionOf(db: Db): PipelinedTransaction | undefined {
  return pipelined.get(db);
}

/** What drizzle gets for a statement whose answer it does not read (`begin`, a read-only `commit`). */
const NO_ROWS = { command: '', rowCount: null, oid: 0, fields: [], rows: [] };

/** A statement made after a single-statement read had sent its commit. */
export class SecondStatementError extends Error {
  constructor() {
    super('pipelined read: declared single, it made a second statement (it would run outside its transaction)');
    this.name = 'SecondStatementError';
  }
}

/** A statement as node-postgres takes it: text, name when prepared, values, row mode, type parsers. */
type Sendable = { text: string; name?: string; values?: unknown[]; rowMode?: string; types?: unknown };
const sendable = (config: unknown, values?: unknown): Sendable => {
  const c = (typeof config === 'string' ? { text: config } : config) as Sendable;
  return values === undefined ? c : { ...c, values: values as unknown[] };
};

/** Statements a pooled connection keeps prepared at most; later new ones go unnamed (parsed each time). */
const MAX_PREPARED = 200;
/** Names of statement texts (a digest of the text: one name never stands for two texts); the oldest goes first. */
const statementNames = new Map<string, string>();

/**
 * A statement with parameters sent through a pipelined transaction runs as a prepared statement of its connection,
 * named after its text: parsed once per connection, not at every request (docs/server.md "Round trips"). PostgreSQL
 * still plans each run for its values (a plan for any value would not use the partial indexes), so only the parse
 * is saved. Statements without parameters (`begin`, `commit`) stay unnamed; a connection holds at most
 * `MAX_PREPARED`.
 */
function preparedOn(prepared: Set<string>, st: Sendable): Sendable {
  if (st.name || !st.values?.length) return st;
  let name = statementNames.get(st.text);
  if (!name) {
    name = `atrium_${createHash('sha256').update(st.text).digest('base64url').slice(0, 32)}`;
    if (statementNames.size >= 4 * MAX_PREPARED) statementNames.delete(statementNames.keys().next().value!);
    statementNames.set(st.text, name);
  }
  if (!prepared.has(name)) {
    if (prepared.size >= MAX_PREPARED) return st;
    prepared.add(name);
  }
  return { ...st, name };
}

/** Values as drizzle's node-postgres driver reads them: dates, times and intervals as text (the columns map them). */
const TEXT_TYPES = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1115, // timestamp[]
  1182, // date[]
  1185, // timestamptz[]
  1187, // interval[]
  1231, // numeric[]
]);
const asText = (v: string) => v;
const DRIVER_TYPES = {
  getTypeParser: (id: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(id) ? asText : pg.types.getTypeParser(id, format ?? 'text'),
};

/** A statement to be answered as arrays of driver values (what drizzle's node-postgres driver reads). */
const asArrays = (st: Statement) => ({ text: st.text, values: st.values, rowMode: 'array', types: DRIVER_TYPES });

/** The method of a pipelined connection's client that answers rows as arrays. */
const ARRAYS = Symbol('arrays');

/** What drizzle's PGlite driver reads as text (the columns map it). */
const PGLITE_TEXT = Object.fromEntries(
  [pg.types.builtins.TIMESTAMP, pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.INTERVAL, pg.types.builtins.DATE].map(
    (id) => [id, asText],
  ),
);

/**
 * A select's rows as arrays of driver values in select-list order (what a column's `mapFromDriverValue` takes), without
 * drizzle's statement object and one object per row: from node-postgres in array mode (a pipelined connection or a
 * plain one), from PGlite's query in array mode. Used where one statement reads many rows (a list's page).
 */
export async function selectArrays(tx: Db, statement: Statement): Promise<unknown[][]> {
  // drizzle marks a database's `session` (and the session's `client`) internal: they are not in its types.
  const client = (tx as unknown as { session?: { client?: Partial<ArraysClient> & Partial<PgliteQuery> } }).session
    ?.client;
  if (client?.[ARRAYS]) return client[ARRAYS](statement.text, statement.values);
  if (client instanceof pg.Client) {
    // A transaction drizzle opened on the pool itself (not a pipelined one).
    const found = await client.query(asArrays(statement));
    return found.rows as unknown[][];
  }
  if (!client?.query) throw new Error('selectArrays: not a transaction of this database');
  const found = await client.query(statement.text, statement.values, { rowMode: 'array', parsers: PGLITE_TEXT });
  return found.rows;
}
/**
 * A statement's rows as objects keyed by column name, on a transaction of either database (a hand-written statement
 * with `$n` parameters, where drizzle's `sql` template does not fit: the per-tenant transfer's catalog and checks).
 */
export async function selectRows(tx: Db, statement: Statement): Promise<Record<string, unknown>[]> {
  const client = (tx as unknown as { session?: { client?: { query?: unknown } } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('selectRows: not a transaction of this database');
  const query = client.query as (text: string, values: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
  return (await query.call(client, statement.text, statement.values)).rows;
}

type PgliteQuery = {
  query(text: string, values: unknown[], opts: { rowMode: 'array'; parsers: object }): Promise<{ rows: unknown[][] }>;
};
type ArraysClient = { [ARRAYS]: (text: string, values: unknown[]) => Promise<unknown[][]> };

type ArrayResult = { fields: { name: string }[]; rows: unknown[][] };
/** Rows answered as arrays, as objects keyed by column name (for the few rows of a check). */
function rowObjects(r: ArrayResult): Record<string, unknown>[] {
  return r.rows.map((row) => {
    const o: Record<string, unknown> = {};
    for (let i = 0; i < r.fields.length; i++) o[r.fields[i].name] = row[i];
    return o;
  });
}

const BEGIN = { text: 'begin' };
const BEGIN_READ_ONLY = { text: 'begin read only' };
const COMMIT = { text: 'commit' };
const ROLLBACK = { text: 'rollback' };

type PgResultLike = {
  addFields(f: unknown): void;
  addRow(r: unknown): void;
  parseRow(f: unknown): unknown;
  addCommandComplete(m: unknown): void;
};
type PgConnection = {
  parsedStatements: Record<string, string>;
  parse(q: { text: string; name: string }): void;
  bind(c: { portal: string; statement: string; values: unknown[]; binary: boolean; valueMapper: unknown }): void;
  describe(m: { type: 'P'; name: string }): void;
  execute(c: { portal: string; rows: number }): void;
  sync(): void;
};
const PgQuery = pg.Query;
// @types/pg types the result without its row-building methods (PgResultLike).
const PgResultClass = (pg as unknown as { Result: new (rowMode?: string, types?: unknown) => PgResultLike }).Result;
// @types/pg leaves out `utils.prepareValue` (what node-postgres binds a parameter with).
const prepareValue = (pg as unknown as { utils: { prepareValue: unknown } }).utils.prepareValue;

/**
 * A batch statement's result in array mode. node-postgres's result also builds, at each row description, an empty
 * row object keyed by the column names (from a prototype-less object V8 keeps as a hash table) that only object mode
 * reads: ≈ 10 µs per page of 28 columns, measured apart. This one keeps the columns and their parsers only.
 */
// The result's own fields, which @types/pg leaves out, are declared here.
class ArrayRows extends (PgResultClass as unknown as new (
  rowMode: string,
  types?: unknown,
) => PgResultLike & {
  fields: unknown;
  _parsers: unknown[] | undefined;
  _types?: { getTypeParser(id: number, format: string): unknown };
}) {
  constructor(types?: unknown) {
    super('array', types);
  }
  addFields(fields: { dataTypeID: number; format?: string }[]) {
    this.fields = fields;
    const types = this._types ?? pg.types;
    const parsers = new Array(fields.length);
    for (let i = 0; i < fields.length; i++)
      parsers[i] = types.getTypeParser(fields[i].dataTypeID, (fields[i].format || 'text') as 'text');
    this._parsers = parsers;
  }
}

/**
 * Statements sent as one batch with a single Sync: PostgreSQL runs them in order and answers them in one flush, so
 * the server reads one answer instead of one per statement (docs/server.md "Round trips"). Each statement keeps its
 * own row mode and type parsers. An error ends the batch there (PostgreSQL skips the rest until the Sync) and
 * rejects it whole, as the transaction it belongs to is then aborted anyway. Only statements already prepared on
 * the connection, or unnamed ones, go in a batch: node-postgres records a preparation only for a statement of its
 * own, so a first use goes the ordinary way (`sendTogether`).
 */
// The query's internals a batch overrides or calls, which @types/pg leaves out, are declared here.
class Batch extends (PgQuery as unknown as new (config: object) => pg.Submittable & {
  callback?: (err: unknown, res?: unknown) => void;
  _canceledDueToError: unknown;
  handleError(err: unknown, connection: unknown): void;
}) {
  private readonly results: PgResultLike[];
  private at = 0;
  constructor(
    private readonly statements: Sendable[],
    callback: (err: unknown, res?: unknown) => void,
  ) {
    super({ text: '-- batch', callback });
    this.results = statements.map((st) =>
      st.rowMode === 'array' ? new ArrayRows(st.types) : new PgResultClass(st.rowMode, st.types),
    );
  }
  requiresPreparation() {
    return true;
  }
  prepare(connection: PgConnection) {
    for (const st of this.statements) {
      if (!st.name) connection.parse({ text: st.text, name: '' });
      connection.bind({
        portal: '',
        statement: st.name ?? '',
        values: st.values ?? [],
        binary: false,
        valueMapper: prepareValue,
      });
      connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '', rows: 0 });
    }
    connection.sync();
  }
  handleRowDescription(msg: { fields: unknown }) {
    this.results[this.at].addFields(msg.fields);
  }
  handleDataRow(msg: { fields: unknown }) {
    if (this._canceledDueToError) return;
    const r = this.results[this.at];
    try {
      r.addRow(r.parseRow(msg.fields));
    } catch (err) {
      this._canceledDueToError = err;
    }
  }
  handleCommandComplete(msg: unknown) {
    this.results[this.at++].addCommandComplete(msg);
  }
  handleEmptyQuery() {
    this.at++;
  }
  handleReadyForQuery(connection: unknown) {
    if (this._canceledDueToError) return this.handleError(this._canceledDueToError, connection);
    this.callback?.(null, this.results);
  }
}

/**
 * Each pooled connection gets, at its first transaction, a drizzle session of its own over a client that sends the
 * transaction's `begin` and the first statement back to back (the pool's connections pipeline: statements written
 * together share one round trip), and one drizzle transaction object that every transaction of the connection hands
 * to `fn` (nested transactions are savepoints; a throw rolls back). `begin`, `commit` and `rollback` are written
 * here, not built by drizzle for every transaction.
 */
function pipelinedTransactions(pool: pg.Pool): PipelinedTransaction {
  type Slot = ArraysClient & {
    tx: Db;
    query: (config: unknown, values?: unknown) => Promise<unknown>;
    first: Statement | null;
    also: AlsoStatement | null;
    readOnly: boolean;
    single: boolean;
    /** A single-statement read sent its commit with its statement: the transaction is over. */
    ended: boolean;
    pending: Promise<unknown> | null;
    /** A read-only transaction's opening statements, not yet sent: they wait for `fn`'s first statement. */
    held: { statements: Sendable[]; settle(answers: Promise<unknown[]>): void } | null;
  };
  const slots = new WeakMap<pg.PoolClient, Slot>();
  const textOf = (q: unknown) => (q as { text?: unknown } | null)?.text;
  const slotOf = (client: pg.PoolClient): Slot => {
    const known = slots.get(client);
    if (known) return known;
    const prepared = new Set<string>();
    const send = (config: unknown, values?: unknown) =>
      // A Sendable's own type parsers (DRIVER_TYPES) do not match the overloaded getTypeParser @types/pg asks for.
      client.query(preparedOn(prepared, sendable(config, values)) as never) as Promise<unknown>;
    // @types/pg leaves out the connection's `parsedStatements` (the statements it has prepared).
    const connection = client.connection as pg.Connection & { parsedStatements: Record<string, string> };
    /** A statement as it will be sent on this connection (named when it is to run prepared). */
    const named = (config: unknown, values?: unknown) => preparedOn(prepared, sendable(config, values));
    /**
     * Statements in order, answered in order: one batch with one Sync when every named one is prepared here already,
     * else each with its own Sync in one write (their first use prepares them).
     */
    const sendTogether = (statements: Sendable[]): Promise<unknown[]> => {
      if (statements.every((st) => !st.name || connection.parsedStatements[st.name] === st.text))
        return new Promise((resolve, reject) =>
          client.query(new Batch(statements, (err, res) => (err ? reject(err) : resolve(res as unknown[])))),
        );
      const stream = connection.stream;
      stream?.cork?.();
      // A Sendable's own type parsers (DRIVER_TYPES) do not match the overloaded getTypeParser @types/pg asks for.
      const sent = statements.map((st) => client.query(st as never) as Promise<unknown>);
      stream?.uncork?.();
      return Promise.all(sent);
    };
    const slot: Slot = {
      // Set below, once drizzle's session over this slot exists.
      tx: undefined as unknown as Db,
      query(config: unknown, values?: unknown) {
        if (slot.ended) return Promise.reject(new SecondStatementError());
        const text = textOf(config);
        const first = slot.first;
        if (first && typeof text === 'string' && text.startsWith('begin')) {
          slot.first = null;
          const also = slot.also;
          slot.also = null;
          // The context's answer is not read, the check's one row is: both come as arrays (no row objects built).
          const opening = [sendable(config, values), named(asArrays(first))];
          if (also) opening.push(named(asArrays(also.statement)));
          const answered = (answers: unknown[]) => {
            if (also) also.onRows(rowObjects(answers[2] as ArrayResult));
            return answers;
          };
          if (!slot.readOnly) return sendTogether(opening).then((answers) => answered(answers)[0]);
          // Read-only: held until `fn`'s first statement joins them (one write, one answer), or until the end of this
          // turn of the event loop if none comes; that statement answers only if they succeeded.
          let settle!: (answers: Promise<unknown[]>) => void;
          const pending = new Promise<unknown[]>((resolve) => (settle = resolve));
          pending.catch(() => {});
          slot.pending = pending;
          const held = { statements: opening, settle: (answers: Promise<unknown[]>) => settle(answers.then(answered)) };
          slot.held = held;
          setImmediate(() => {
            if (slot.held !== held) return;
            slot.held = null;
            held.settle(sendTogether(held.statements));
          });
          return Promise.resolve(NO_ROWS);
        }
        const pending = slot.pending;
        if (pending) {
          // `fn`'s first statement: it goes with the opening statements still held (or behind them if they went out
          // already), and answers only if they succeeded. A single-statement read's commit goes in the same batch;
          // nothing more runs in this transaction.
          slot.pending = null;
          const held = slot.held;
          slot.held = null;
          const statements = [...(held?.statements ?? []), named(config, values)];
          if (slot.single) {
            slot.ended = true;
            statements.push(COMMIT);
          }
          const all = sendTogether(statements);
          // A failed batch skipped its commit (PostgreSQL ignores what follows an error until the Sync): the rollback
          // is queued at once, ahead of anything a next holder of the connection sends.
          if (slot.single) all.catch(() => send(ROLLBACK).catch(() => {}));
          const n = held ? held.statements.length : 0;
          held?.settle(all.then((answers) => answers.slice(0, n)));
          return Promise.all([pending, all]).then(([, answers]) => answers[n]);
        }
        if (slot.readOnly && text === 'commit') {
          // A read-only transaction has nothing to make durable: the connection goes back to the pool with its
          // commit on the wire, and whoever takes it next is answered after it.
          send(config, values).catch(() => {});
          return Promise.resolve(NO_ROWS);
        }
        return send(config, values);
      },
      [ARRAYS]: (text, values) => slot.query(asArrays({ text, values })).then((r) => (r as { rows: unknown[][] }).rows),
      first: null,
      also: null,
      readOnly: false,
      single: false,
      ended: false,
      pending: null,
      held: null,
    };
    // The slot stands in for a pg client with the one call drizzle makes (query); drizzle's `session` is internal.
    const session = (
      drizzlePg({ client: slot as never, schema }) as unknown as { session: NodePgSession<Schema, never> }
    ).session;
    // drizzle marks a session's `dialect` and `schema` internal: they are not in its types.
    const inner = session as unknown as { dialect: never; schema: never };
    slot.tx = new NodePgTransaction(inner.dialect, session, inner.schema);
    slots.set(client, slot);
    return slot;
  };
  return async (first, fn, opts) => {
    const client = await pool.connect();
    const slot = slotOf(client);
    slot.first = first;
    slot.also = opts?.also ?? null;
    slot.readOnly = !!opts?.readOnly;
    slot.single = slot.readOnly && !!opts?.single;
    let broken: Error | undefined;
    try {
      let out;
      try {
        // Inside the try: a `begin` whose context statement failed is rolled back, never handed on half open.
        await slot.query(slot.readOnly ? BEGIN_READ_ONLY : BEGIN);
        // Fail closed: `fn` never runs without the first statement (the tenant context) in its transaction.
        if (slot.first) throw new Error('pipelined transaction: the first statement was not sent with begin');
        out = await fn(slot.tx);
        // `fn` made no statement: the ones sent with begin are still to be answered (and `also` handed its rows).
        const pending = slot.pending;
        slot.pending = null;
        if (pending) await pending;
      } catch (err) {
        if (!slot.ended) {
          slot.pending?.catch(() => {});
          slot.pending = null;
          // Never sent: nothing opened on the server to roll back, and it must not go out after the connection is
          // handed on.
          slot.held = null;
          // A connection that cannot even roll back is not handed out again.
          await slot.query(ROLLBACK).catch((e: Error) => {
            broken = e;
          });
        }
        throw err;
      }
      if (!slot.ended) await slot.query(COMMIT);
      return out;
    } finally {
      slot.first = null;
      slot.also = null;
      slot.pending = null;
      slot.held = null;
      slot.readOnly = false;
      slot.single = false;
      slot.ended = false;
      client.release(broken);
    }
  };
}

/**
 * Connections of the PostgreSQL pool. A request holds one for its transaction only (password hashing and other slow
 * work happen before it, docs/server.md "Under load"), so a few serve many concurrent requests.
 */
export const DEFAULT_POOL_SIZE = 10;

/**
 * Runs `fn` holding the start-up advisory lock on a connection of its own (not one of the pool's, which `fn` uses).
 * PostgreSQL releases a session lock when its connection ends, so a start that dies midway never blocks the next.
 */
async function withAdvisoryLock<T>(url: string, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // The lock's connection ended by the database while `fn` runs: its statement in flight fails (the start-up is then
  // tried again, server.ts), and an idle one's error must not end the process. The migrations and the seed are each
  // one transaction, so a second server that takes the lock meanwhile finds them whole or not at all.
  c.on('error', () => {});
  try {
    await c.connect();
    const key = STARTUP_LOCK_KEY.toString();
    const got = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [key]);
    if (!got.rows[0].ok) {
      onWait?.();
      await c.query('select pg_advisory_lock($1::bigint)', [key]);
    }
    const out = await fn();
    // A lock whose connection has ended is released already: its unlock failing changes nothing.
    await c.query('select pg_advisory_unlock($1::bigint)', [key]).catch(() => {});
    return out;
  } finally {
    await c.end().catch(() => {});
  }
}

/** Connects on a connection of its own and runs one statement: whether a down PostgreSQL is back. */
async function probePostgres(url: string): Promise<void> {
  const c = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
  });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.query('select 1');
  } finally {
    await c.end().catch(() => {});
  }
}
