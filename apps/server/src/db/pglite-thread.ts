import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { FairGate } from './fair-gate.ts';

/**
 * The embedded database in a thread of its own (docs/server.md "Embedded database"): PGlite's WebAssembly runs in a
 * worker (`pglite-worker.mjs`), so a statement never holds the HTTP event loop. This object stands where a PGlite
 * instance stood for drizzle's PGlite driver: `query`, `exec` and `transaction` with PGlite's semantics; each
 * statement is one message to the worker and one back (a transaction's `begin`, and the statements put before it
 * with `PGLITE_TX`, go with its first statement; a read-only transaction's end is not waited for).
 *
 * Work is admitted through a fair gate two wide (`db/fair-gate.ts`): PGlite has one connection, and a statement or a
 * transaction holds it to the end (PGlite's own locks in the worker keep them one at a time and whole); the second
 * holder's first statement already waits in the worker, so the database does not idle for a hop through the busy
 * main thread between two of them. When both places are taken, the waiters are served round-robin by tenant and
 * user, so a caller with one cheap statement waits a turn or two, not behind everyone else's queue.
 *
 * A worker that stops (a crash, an out-of-memory abort) fails every statement in flight and every later one with a
 * connection-failure error (SQLSTATE 08006): the server's availability turns down and API calls are answered 503 at
 * once (docs/server.md "Database outages"). A data dir's worker is started again by the next statement (the
 * availability probe's), which recovers the cluster as PostgreSQL does after a crash; an in-memory one cannot come
 * back.
 */
/** Holders of the embedded database at once: one running, one queued in the worker behind it. */
export const PGLITE_GATE_WIDTH = 2;

export class PgliteThread {
  private worker!: Worker;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private seq = 0;
  private txSeq = 0;
  private starting!: Promise<void>;
  /** Why the worker stopped; null while it runs. */
  private stopped: Error | null = null;
  /** LISTEN callbacks by channel (platform/live-memory.ts): sent again to a worker started after one stopped. */
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private closed = false;
  /** Messages posted to the worker so far (each is a hop there and back): tests count a request's hops with it. */
  messages = 0;
  /** Who uses the database next: the one running and the one next in the worker. */
  readonly gate = new FairGate(PGLITE_GATE_WIDTH);

  constructor(
    private readonly opts: { dataDir?: string; loadDataDir?: Uint8Array },
    /** Told when the worker stops unexpectedly. */
    private readonly onStop: (err: Error) => void = () => {},
  ) {
    this.start();
  }

  /** Resolves once the database is open (migrations not included); rejects with the reason it could not open. */
  get waitReady(): Promise<void> {
    return this.starting;
  }

  private start() {
    this.stopped = null;
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir: this.opts.dataDir ?? null, loadDataDir: this.opts.loadDataDir ?? null },
    });
    this.worker = worker;
    this.starting = new Promise<void>((resolve, reject) => {
      const first = (msg: { ready?: boolean; error?: object }) => {
        if (msg.ready) resolve();
        else reject(toError(msg.error));
      };
      worker.once('message', first);
      // A worker that cannot even start (its file missing, a broken install) is no outage: its own error, as it is.
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`The embedded database's thread exited with code ${code}`)));
    });
    this.starting.catch(() => {});
    worker.on(
      'message',
      (msg: { id?: number; ok?: boolean; result?: unknown; error?: object; notify?: string; payload?: string }) => {
        if (msg.notify !== undefined) {
          for (const cb of this.listeners.get(msg.notify) ?? []) cb(msg.payload ?? '');
          return;
        }
        if (msg.id === undefined) return;
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (msg.ok) p.resolve(msg.result);
        else p.reject(toError(msg.error));
      },
    );
    // A new worker listens again on the channels of the one before (posted ahead of any statement).
    for (const channel of this.listeners.keys()) void this.send({ op: 'listen', channel }).catch(() => {});
    worker.on('error', (err) => this.die(worker, new WorkerStoppedError(err.message, err)));
    worker.on('exit', (code) => this.die(worker, new WorkerStoppedError(`it exited with code ${code}`)));
  }

  private die(worker: Worker, err: WorkerStoppedError) {
    if (worker !== this.worker || this.stopped) return;
    this.stopped = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    if (!this.closed) this.onStop(err);
  }

  private call<T>(msg: Record<string, unknown>): Promise<T> {
    if (this.closed) return Promise.reject(new WorkerStoppedError('the database is closed'));
    if (this.stopped) {
      // A data dir survives its worker: the next statement starts a new one (an in-memory database is gone).
      if (!this.opts.dataDir) return Promise.reject(this.stopped);
      this.start();
    }
    return this.send<T>(msg);
  }

  private send<T>(msg: Record<string, unknown>): Promise<T> {
    const id = ++this.seq;
    this.messages++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  private async statement<T>(
    text: string,
    params: unknown[] | undefined,
    options: QueryOptions | undefined,
    tx?: TxState,
  ): Promise<Results<T>> {
    const parsers = options?.parsers;
    const raw = parsers ? Object.keys(parsers).map(Number) : undefined;
    const r = await this.call<Results<T>>({
      op: 'query',
      text,
      params: params ?? [],
      rowMode: options?.rowMode ?? 'object',
      raw,
      ...(tx ? opening(tx) : {}),
    });
    if (parsers) applyParsers(r, parsers, options?.rowMode === 'array');
    return r;
  }

  /** One statement outside a transaction, when its turn comes. */
  async query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    await this.gate.acquire();
    try {
      return await this.statement<T>(text, params, options);
    } finally {
      this.gate.release();
    }
  }

  /** Statements separated by semicolons (no parameters), outside a transaction. */
  async exec(text: string): Promise<Results[]> {
    await this.gate.acquire();
    try {
      return await this.call<Results[]>({ op: 'exec', text });
    } finally {
      this.gate.release();
    }
  }

  /**
   * `fn` in a transaction: committed when it resolves, rolled back when it throws. Nothing else runs on the database
   * meanwhile (PGlite's transactions are exclusive); the `begin` goes to the worker with the first statement.
   */
  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    await this.gate.acquire();
    const state: TxState = { id: ++this.txSeq, begun: false, before: [], readOnly: false };
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const end = (commit: boolean) => {
      if (!state.begun) return undefined;
      const ended = this.call<void>({ op: 'end', tx: state.id, commit });
      // A read-only transaction has nothing to lose at its end: the caller and the next holder do not wait for the
      // answer (the worker ends it before it runs anything sent later).
      if (state.readOnly) {
        ended.catch(() => {});
        return undefined;
      }
      return ended;
    };
    const tx = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        open();
        return this.statement<R>(text, params, options, state);
      },
      exec: (text: string) => {
        open();
        return this.call<Results[]>({ op: 'exec', text, ...opening(state) });
      },
      [PGLITE_TX]: {
        before(text: string, params: unknown[] = []) {
          open();
          if (state.begun) throw new Error('the transaction has begun: a statement cannot go before it any more');
          state.before.push({ text, params });
        },
        readOnly() {
          open();
          if (state.begun) throw new Error('the transaction has begun: it cannot be made read-only any more');
          if (!state.readOnly) state.before.unshift({ text: 'set transaction read only', params: [] });
          state.readOnly = true;
        },
      } satisfies PgliteTxExtras,
      rollback: async () => {
        open();
        closed = true;
        await end(false);
      },
      get closed() {
        return closed;
      },
      // What drizzle's PGlite driver calls of a transaction; PGlite's Transaction type also has `sql` and `listen`.
    } as unknown as Transaction;
    try {
      let out: T;
      try {
        out = await fn(tx);
      } catch (err) {
        if (!closed) {
          closed = true;
          await end(false)?.catch(() => {});
        }
        throw err;
      }
      if (!closed) {
        closed = true;
        await end(true);
      }
      return out;
    } finally {
      this.gate.release();
    }
  }

  /**
   * LISTEN on the embedded database (docs/server.md "Live state"): `cb` gets each notification of `channel`, before the
   * answer of the statement that committed it. Returns the unlisten.
   */
  async listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.call({ op: 'listen', channel });
    }
    set.add(cb);
    return async () => {
      const now = this.listeners.get(channel);
      if (!now?.delete(cb) || now.size) return;
      this.listeners.delete(channel);
      if (!this.stopped && !this.closed) await this.call({ op: 'unlisten', channel });
    };
  }

  /** The data directory as a tar (for the tests' database image). */
  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'auto'): Promise<Blob> {
    const bytes = await this.call<Uint8Array<ArrayBuffer>>({ op: 'dump', compression });
    return new Blob([bytes], { type: 'application/x-tar' });
  }

  /** Closes the database and ends the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (!this.stopped) await this.call({ op: 'close' });
    } finally {
      this.closed = true;
      await this.worker.terminate();
    }
  }
}

/** A transaction's state in the main thread. */
type TxState = {
  id: number;
  /** Whether its first message (with `begin`) has gone to the worker. */
  begun: boolean;
  /** Statements that go with its first message, answered by nothing but an error. */
  before: { text: string; params: unknown[] }[];
  readOnly: boolean;
};

/** What a statement of `tx` adds to its message: the transaction, and with the first one `begin` and `before`. */
function opening(tx: TxState) {
  if (tx.begun) return { tx: tx.id };
  tx.begun = true;
  const before = tx.before;
  tx.before = [];
  return { tx: tx.id, begin: true, ...(before.length ? { before } : {}) };
}

/**
 * The embedded database's own calls on an open transaction (the object drizzle's PGlite session holds as its client),
 * for platform/tenant-db.ts. Both only before the transaction's first statement.
 */
export const PGLITE_TX = Symbol('pglite transaction');
export type PgliteTxExtras = {
  /** A statement whose rows nobody reads (the tenant context): it goes with the first statement, no hop of its own. */
  before(text: string, params?: unknown[]): void;
  /** The transaction only reads (a write fails, as in PostgreSQL's `begin read only`); its end is not waited for. */
  readOnly(): void;
};

/** The embedded extras of a drizzle transaction, when it is one on the embedded database. */
export function pgliteTxOf(tx: unknown): PgliteTxExtras | undefined {
  const client = (tx as { session?: { client?: { [PGLITE_TX]?: PgliteTxExtras } } }).session?.client;
  return client?.[PGLITE_TX];
}

/** The worker stopped: every statement fails as on a connection that was cut (SQLSTATE 08006). */
export class WorkerStoppedError extends Error {
  readonly code = '08006';
  constructor(why: string, cause?: unknown) {
    super(`Connection terminated: the embedded database's thread stopped (${why})`, { cause });
    this.name = 'WorkerStoppedError';
  }
}

/** An error the worker sent as plain data, with its fields (code, detail, constraint…) back on it. */
function toError(data: object | undefined): Error {
  const d = (data ?? {}) as { message?: string; name?: string; cause?: object };
  const err = new Error(d.message ?? 'unknown error');
  Object.assign(err, { ...d, cause: d.cause ? toError(d.cause) : undefined });
  return err;
}

/** The caller's parsers applied to the columns the worker left as text. */
function applyParsers(r: Results<unknown>, parsers: NonNullable<QueryOptions['parsers']>, arrays: boolean) {
  const cols: { at: number | string; parse: (x: string, oid: number) => unknown; oid: number }[] = [];
  r.fields.forEach((f, i) => {
    const parse = parsers[f.dataTypeID] as ((x: string, oid: number) => unknown) | undefined;
    if (parse) cols.push({ at: arrays ? i : f.name, parse, oid: f.dataTypeID });
  });
  if (!cols.length) return;
  for (const row of r.rows as Record<string | number, unknown>[])
    for (const c of cols) {
      const v = row[c.at];
      if (v !== null && v !== undefined) row[c.at] = c.parse(v as string, c.oid);
    }
}
