// Two builds of the server side by side, for work on the client page's time (docs/clients.md "Bench"): server A from
// AB_A (a server directory, e.g. a `git worktree` of the commit before a change) and server B from this checkout, both
// on a database the client-page bench kept, each with the bench's region admin logged in. The calls go in turn —
// A, B, then the raw SQL of the client-page bench — so a change of the shared machine's speed meets both builds
// alike; after AB_WARM rounds (V8 optimises a request's code over its first thousands of calls) AB_N rounds are timed.
// Prints each build's p50, its ratio to the raw SQL and its CPU per call, and B's against A's.
// Usage: `cd apps/server && AB_A=/tmp/ab-base/apps/server STEADY_DB=atrium_bench_xxxx npx tsx bench/ab.ts`.
// Knobs: AB_N (2000), AB_WARM (4000), AB_B_FLAGS (more flags for B's node, e.g. a GC setting), STEADY_PATH (the client page, page 1), STEADY_REGION (110101).
import pg from 'pg';
import { rawQueries } from './clients.ts';
import { cpuMs, keepAliveGet, round, runIfMain, stat } from './lib.ts';
import { startBenchServer } from './steady.ts';

export async function ab(serverDir: string) {
  const dbName = process.env.STEADY_DB;
  const dirA = process.env.AB_A;
  if (!dbName || !dirA) throw new Error('AB_A (server directory of build A) and STEADY_DB (a kept bench database)');
  const n = Number(process.env.AB_N ?? 2000);
  const warm = Number(process.env.AB_WARM ?? 4000);
  const path = process.env.STEADY_PATH ?? '/api/blade-business/clientInfo/page?current=1&size=10';
  const a = await startBenchServer(dirA, dbName, 18441, { env: { ATRIUM_MQTT_PORT: '18443' } });
  const b = await startBenchServer(serverDir, dbName, 18442, {
    env: { ATRIUM_MQTT_PORT: '18444' },
    nodeFlags: process.env.AB_B_FLAGS?.split(' ').filter(Boolean),
  }).catch(async (e) => {
    await a.stop();
    throw e;
  });
  const raw = new pg.Client({ connectionString: a.url });
  try {
    await raw.connect();
    const rq = rawQueries('100050', process.env.STEADY_REGION ?? '110101', 1, 10);
    const times = { a: [] as number[], b: [] as number[], raw: [] as number[] };
    const cpu = { a: 0, b: 0 };
    const call = async (s: typeof a) => {
      const t = performance.now();
      const status = await keepAliveGet(s.base + path, s.headers);
      if (status !== 200) throw new Error(`${path} answered ${status}`);
      return performance.now() - t;
    };
    for (let i = 0; i < warm + n; i++) {
      if (i === warm) {
        cpu.a = cpuMs(a.child.pid) ?? 0;
        cpu.b = cpuMs(b.child.pid) ?? 0;
      }
      // Which build goes first alternates: neither always follows the raw SQL.
      const [ta, tb] = i % 2 ? [await call(a), await call(b)] : [await call(b), await call(a)].reverse();
      const t = performance.now();
      await raw.query(rq.count);
      await raw.query(rq.page);
      const tr = performance.now() - t;
      if (i >= warm) {
        times.a.push(ta);
        times.b.push(tb);
        times.raw.push(tr);
      }
    }
    const perCall = (s: typeof a, at: number) => round(((cpuMs(s.child.pid) ?? 0) - at) / n);
    const sa = stat(times.a);
    const sb = stat(times.b);
    const sr = stat(times.raw);
    return {
      path,
      rounds: { warm, timed: n },
      a: { dir: dirA, ...sa, ratio: round(sa.p50 / sr.p50), cpuMsPerCall: perCall(a, cpu.a) },
      b: { dir: serverDir, ...sb, ratio: round(sb.p50 / sr.p50), cpuMsPerCall: perCall(b, cpu.b) },
      raw: sr,
      bOverA: round(sb.p50 / sa.p50),
    };
  } finally {
    await raw.end().catch(() => {});
    await Promise.all([a.stop(), b.stop()]);
  }
}

runIfMain(import.meta.url, ab);
