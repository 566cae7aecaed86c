// Issue 9 §2 (load bench): one caller firing hundreds of requests must not make everyone else wait behind them for a
// database connection (docs/server.md "Under load").
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { FairGate, gatePool, runInLane } from '../src/db/fair-gate.ts';

describe('the fair gate', () => {
  it('serves waiters round-robin: across tenants first, then across users, first come first served within one', async () => {
    const gate = new FairGate(1);
    await gate.acquire({ group: 'x', member: 'x' });
    const order: string[] = [];
    const wait = (group: string, member: string, tag: string) =>
      gate.acquire({ group, member }).then(() => {
        order.push(tag);
        gate.release();
      });
    const all = [
      wait('t1', 'busy', 'b1'),
      wait('t1', 'busy', 'b2'),
      wait('t1', 'busy', 'b3'),
      wait('t1', 'other', 'o1'),
      wait('t2', 'quiet', 'q1'),
    ];
    gate.release();
    await Promise.all(all);
    // t1 and t2 alternate; within t1, busy and other alternate.
    expect(order).toEqual(['b1', 'q1', 'o1', 'b2', 'b3']);
    expect(gate.inUse).toBe(0);
    expect(gate.queued).toBe(0);
  });

  it('never holds more than its size, and frees every slot', async () => {
    const gate = new FairGate(3);
    let now = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await gate.acquire({ group: `g${i % 4}`, member: `m${i % 7}` });
        peak = Math.max(peak, ++now);
        await new Promise((r) => setTimeout(r, 1));
        now--;
        gate.release();
      }),
    );
    expect(peak).toBe(3);
    expect(gate.inUse).toBe(0);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'on a real PostgreSQL pool, a quiet caller is answered while a busy one has forty queries in line',
    async () => {
      const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
      gatePool(pool, 2);
      try {
        const finished: string[] = [];
        const busy = Array.from({ length: 40 }, (_, i) =>
          runInLane({ group: 't1', member: 'busy' }, () =>
            pool.query('select pg_sleep(0.02)').then(() => finished.push(`busy${i}`)),
          ),
        );
        await new Promise((r) => setTimeout(r, 30));
        const t0 = performance.now();
        await runInLane({ group: 't2', member: 'quiet' }, () => pool.query('select 1'));
        const quietMs = performance.now() - t0;
        const busyBefore = finished.length;
        await Promise.all(busy);
        // Behind forty 20 ms queries on two connections the quiet one would wait ~400 ms first come first served.
        expect(busyBefore).toBeLessThan(10);
        expect(quietMs).toBeLessThan(200);
        // Transactions (connect + release) pass through the same gate.
        const c = await runInLane({ group: 't3', member: 'tx' }, () => pool.connect());
        await c.query('begin');
        await c.query('commit');
        c.release();
      } finally {
        await pool.end();
      }
    },
  );
});
