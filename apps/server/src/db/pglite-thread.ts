import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { FairGate } from './fair-gate.ts';

/**
 * The embedded database in a thread of its own (docs/server.md "Embedded database"): PGlite's WebAssembly runs in a
 * worker (`pglite-worker.mjs`), so a statement never holds the HTTP event loop. This object stands where a PGlite
 * instance stood for drizzle's PGlite driver: `query`, `exec` and `transaction` with PGlite's semantics; each
 * statement is one message to the worker and one back (a transaction's `begin` goes with its first statement).
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
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  private async statement<T>(
    text: string,
    params: unknown[] | undefined,
    options: QueryOptions | undefined,
    tx?: { id: number; begun: boolean },
  ): Promise<Results<T>> {
    const parsers = options?.parsers;
    const raw = parsers ? Object.keys(parsers).map(Number) : undefined;
    const begin = tx && !tx.begun;
    if (tx) tx.begun = true;
    const r = await this.call<Results<T>>({
      op: 'query',
      text,
      params: params ?? [],
      rowMode: options?.rowMode ?? 'object',
      raw,
      tx: tx?.id,
      begin,
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
    const state = { id: ++this.txSeq, begun: false };
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const end = (commit: boolean) => (state.begun ? this.call<void>({ op: 'end', tx: state.id, commit }) : undefined);
    const tx = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        open();
        return this.statement<R>(text, params, options, state);
      },
      exec: (text: string) => {
        open();
        const begin = !state.begun;
        state.begun = true;
        return this.call<Results[]>({ op: 'exec', text, tx: state.id, begin });
      },
      rollback: async () => {
        open();
        closed = true;
        await end(false);
      },
      get closed() {
        return closed;
      },
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
