// Issue 25 §5 (a crowd on the embedded database): PGlite runs in a worker thread, so its statements never hold the
// HTTP event loop, and its work is admitted fairly (docs/server.md "Embedded database").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import { runInLane } from '../src/db/fair-gate.ts';
import type { PgliteThread } from '../src/db/pglite-thread.ts';
import { rowsOf } from '../src/db/rows.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A statement that keeps the database busy for a while (tens to hundreds of ms per million rows). */
const busy = (rows: number) => sql.raw(`select count(*) from generate_series(1, ${rows}) g where g % 7 = 3`);

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  await database.db.execute(sql`create table t (x int primary key)`);
}, 120_000);
afterAll(async () => database?.close());

describe('the embedded database in a thread of its own', () => {
  it('a heavy statement leaves the event loop free: timers keep firing while it runs', async () => {
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const t0 = performance.now();
    try {
      await database.db.execute(busy(3_000_000));
    } finally {
      clearInterval(timer);
    }
    const took = performance.now() - t0;
    longestGap = Math.max(longestGap, performance.now() - last);
    // In process, the statement held the loop for all of it: the longest gap was the statement's time. (A busy machine
    // delays a timer now and then; never by a large share of the statement.)
    expect(took).toBeGreaterThan(300);
    expect(longestGap).toBeLessThan(took / 4);
  });

  it("a one-statement caller is answered after a turn or two, not behind another user's queue of twelve", async () => {
    const finished: string[] = [];
    const queue = Array.from({ length: 12 }, (_, i) =>
      runInLane({ group: 't1', member: 'busy' }, () =>
        database.db.transaction(async (tx) => {
          await tx.execute(busy(400_000));
          await tx.execute(sql`select 1`);
        }),
      ).then(() => finished.push(`busy${i}`)),
    );
    await sleep(20);
    await runInLane({ group: 'ip', member: '10.0.0.9' }, () => database.db.execute(sql`select 1`));
    finished.push('quiet');
    await Promise.all(queue);
    // First come first served (PGlite's own lock) answered it last; the gate lets it in at the next turn.
    expect(finished.indexOf('quiet')).toBeLessThanOrEqual(3);
  });

  it('keeps transactions whole: nothing runs between the statements of another, and a rollback leaves nothing', async () => {
    const seen: number[] = [];
    const first = database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into t values (1)`);
        await sleep(100);
        await tx.execute(sql`insert into t values (2)`);
        throw new Error('changed my mind');
      })
      .catch((e: Error) => e.message);
    await sleep(10);
    const second = database.db.transaction(async (tx) => {
      const rows = await rowsOf<{ n: number }>(tx, sql`select count(*)::int as n from t`);
      seen.push(rows[0].n);
    });
    expect(await first).toBe('changed my mind');
    await second;
    expect(seen).toEqual([0]);
    const after = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from t`);
    expect(after[0].n).toBe(0);
  });

  it("a database error keeps its SQLSTATE and constraint, and the caller's parsers apply", async () => {
    await database.db.execute(sql`insert into t values (7)`);
    const err = await database.db.execute(sql`insert into t values (7)`).then(
      () => null,
      (e: { cause?: { code?: string; constraint?: string } }) => e.cause,
    );
    expect(err?.code).toBe('23505');
    expect(err?.constraint).toBe('t_pkey');
    // `Db` leaves out the `$client` drizzle keeps: here the database's PgliteThread (db/client.ts).
    const client = (database.db as unknown as { $client: PgliteThread }).$client;
    const r = await client.query<{ at: string; n: number }>(
      `select timestamptz '2026-11-27 10:00:00+00' as at, 3 as n`,
      [],
      { parsers: { 1184: (x: string) => `text:${x}` } },
    );
    expect(r.rows[0]).toEqual({ at: 'text:2026-11-27 10:00:00+00', n: 3 });
  });
});

describe('a worker that stops', () => {
  let dir: string;
  let onDisk: Database | undefined;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-thread-'));
  });
  afterAll(async () => {
    await onDisk?.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fails the statement in flight as a lost connection, turns the database down, and comes back on its data dir', async () => {
    onDisk = await openDatabase({ dataDir: dir });
    await onDisk.db.execute(sql`create table kept (x int)`);
    await onDisk.db.execute(sql`insert into kept values (42)`);
    // `Db` leaves out the `$client` drizzle keeps: here the database's PgliteThread (db/client.ts).
    const client = onDisk.db as unknown as { $client: { worker: { terminate(): Promise<number> } } };
    type Failure = { code?: string; message?: string; cause?: Failure };
    const inFlight = onDisk.db.execute(busy(20_000_000)).then(
      () => null,
      (e: Failure) => e.cause ?? e,
    );
    await sleep(100);
    // As a crash would: the thread ends with the statement unanswered.
    await client.$client.worker.terminate();
    const err = await inFlight;
    expect(err?.code).toBe('08006');
    expect(err?.message).toMatch(/embedded database's thread stopped/);
    expect(onDisk.availability.down).toBe(true);
    // The availability probe starts a new worker on the same data dir.
    for (let i = 0; i < 200 && onDisk.availability.down; i++) await sleep(100);
    expect(onDisk.availability.down).toBe(false);
    expect(await rowsOf(onDisk.db, sql`select x from kept`)).toEqual([{ x: 42 }]);
  }, 120_000);
});
