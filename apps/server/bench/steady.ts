// One endpoint in its steady state, for work on the client page's time (docs/clients.md "Bench"): a server on a
// database the client-page bench kept (`BENCH_CLIENTS_KEEP_DB=1`), the bench's region admin logged in, then N calls
// one at a time with a keep-alive client; prints p50/p99 of all calls and of the last half (after the server's code
// is optimised) and, over the last half, the CPU time per call of the server and of the PostgreSQL backends serving it.
// `STEADY_RAW=1` calls the raw SQL of the client-page bench (its count, then its page) after each call, on a
// connection of its own, and prints its p50 and its backend's CPU per pair beside the endpoint's: the ratio and what
// each side costs PostgreSQL, measured in one run. `STEADY_PROFILE=1` writes the server's CPU profile to STEADY_PROFILE_DIR (default /tmp/atrium-prof),
// summarised by `node bench/cpu-summary.mjs <file>` (self and inclusive time by package and by function).
// Usage: `cd apps/server && STEADY_DB=atrium_bench_xxxx npx tsx bench/steady.ts`. Knobs: STEADY_N (3000), STEADY_PATH
// (the client page, page 1), STEADY_PORT (18431), BENCH_PG_URL (the server holding STEADY_DB), STEADY_RAW,
// STEADY_WINDOW, STEADY_NODE_FLAGS (more flags for the server's node).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { rawQueries } from './clients.ts';
import { BASIC, captchaLogin, cpuMs, keepAliveGet, round, runIfMain, scriptArgs, sleep, stat, waitFor } from './lib.ts';

/** A server on a database the client-page bench kept, with the bench's region admin logged in (steady.ts, ab.ts). */
export async function startBenchServer(
  serverDir: string,
  dbName: string,
  port: number,
  o: { profileDir?: string; nodeFlags?: string[]; env?: Record<string, string> } = {},
) {
  const url = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${dbName}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-steady-'));
  const captchaFile = path.join(dir, 'captchas.txt');
  const child = spawn(
    process.execPath,
    [
      ...(o.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.profileDir}`] : []),
      // Further flags for the server's node, e.g. `--trace-deopt` (its output goes to this run's stdout).
      ...(o.nodeFlags ?? []),
      ...scriptArgs('test/captcha-file-server.ts', serverDir),
    ],
    {
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: url.toString(),
        LOG_LEVEL: 'warn',
        ATRIUM_DATA_DIR: dir,
        ATRIUM_E2E_CAPTCHA_FILE: captchaFile,
        ...o.env,
      },
      cwd: serverDir,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await sleep(100);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const base = `http://127.0.0.1:${port}`;
    // A loaded machine starts a server slowly: BENCH_START_MS (60 s).
    await waitFor(`${base}/api/blade-system/tenant/info?domain=x`, Number(process.env.BENCH_START_MS ?? 60_000));
    const token = await captchaLogin(base, captchaFile, 'region_bench', 'Bench-region-1', '100050');
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
    return { child, base, headers, url: url.toString(), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

export async function steady(serverDir: string) {
  const dbName = process.env.STEADY_DB;
  if (!dbName) throw new Error('STEADY_DB: name a database kept by the client-page bench (BENCH_CLIENTS_KEEP_DB=1)');
  const port = Number(process.env.STEADY_PORT ?? 18431);
  const n = Number(process.env.STEADY_N ?? 3000);
  const profile = process.env.STEADY_PROFILE === '1';
  const profileDir = process.env.STEADY_PROFILE_DIR ?? path.join(os.tmpdir(), 'atrium-prof');
  const server = await startBenchServer(serverDir, dbName, port, {
    profileDir: profile ? profileDir : undefined,
    nodeFlags: process.env.STEADY_NODE_FLAGS?.split(' ').filter(Boolean),
  });
  const { child, base, headers } = server;
  const url = server.url;
  try {
    const target = base + (process.env.STEADY_PATH ?? '/api/blade-business/clientInfo/page?current=1&size=10');
    const times: number[] = [];
    const rawTimes: number[] = [];
    // The raw side's own connection, and one to find the backends serving the server (by database, not ours).
    const raw = process.env.STEADY_RAW === '1' ? new pg.Client({ connectionString: url.toString() }) : undefined;
    const monitor = new pg.Client({ connectionString: url.toString() });
    await monitor.connect();
    await raw?.connect();
    const rawPid = raw ? Number((await raw.query('select pg_backend_pid() as p')).rows[0].p) : 0;
    const rq = rawQueries('100050', process.env.STEADY_REGION ?? '110101', 1, 10);
    const serverBackends = async () =>
      (
        await monitor.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database() and pid <> all($1::int[])',
          [[rawPid, Number((await monitor.query('select pg_backend_pid() as p')).rows[0].p)]],
        )
      ).rows.map((r) => r.pid);
    let cpuAtHalf: number | undefined;
    let pgAtHalf = new Map<number, number>();
    let rawPgAtHalf = 0;
    const half = Math.floor(n / 2);
    // The warm-up curve: the server's CPU per call and the p50 of each window of calls (V8 optimises a request's
    // code over the first thousands of calls).
    const windowSize = Number(process.env.STEADY_WINDOW ?? 500);
    const windows: { calls: number; serverCpuMsPerCall: number; p50: number; raw?: number; ratio?: number }[] = [];
    let windowCpu = cpuMs(child.pid) ?? 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && i % windowSize === 0) {
        const now = cpuMs(child.pid) ?? 0;
        const p50 = stat(times.slice(i - windowSize, i)).p50;
        const rawP50 = raw ? stat(rawTimes.slice(i - windowSize, i)).p50 : undefined;
        windows.push({
          calls: i,
          serverCpuMsPerCall: Math.round(((now - windowCpu) / windowSize) * 1000) / 1000,
          p50,
          ...(rawP50 ? { raw: rawP50, ratio: round(p50 / rawP50) } : {}),
        });
        windowCpu = now;
      }
      if (i === half) {
        cpuAtHalf = cpuMs(child.pid);
        pgAtHalf = new Map((await serverBackends()).map((p) => [p, cpuMs(p) ?? 0]));
        rawPgAtHalf = cpuMs(rawPid) ?? 0;
      }
      const t = performance.now();
      const status = await keepAliveGet(target, headers);
      times.push(performance.now() - t);
      if (status !== 200) throw new Error(`${target} answered ${status}`);
      if (raw) {
        const r = performance.now();
        await raw.query(rq.count);
        await raw.query(rq.page);
        rawTimes.push(performance.now() - r);
      }
    }
    const calls = n - half;
    // A backend that the pool opened after the half counts from zero.
    let pgCpu = 0;
    for (const p of await serverBackends()) pgCpu += (cpuMs(p) ?? 0) - (pgAtHalf.get(p) ?? 0);
    const rawPgCpu = raw ? (cpuMs(rawPid) ?? 0) - rawPgAtHalf : 0;
    await raw?.end();
    await monitor.end();
    return {
      path: target.slice(base.length),
      all: stat(times),
      lastHalf: stat(times.slice(n / 2)),
      // The server's own CPU per call over the last half (user + system, Linux): steadier than latency on a shared
      // machine, where a neighbour's load moves every wait.
      ...(cpuAtHalf !== undefined && cpuMs(child.pid) !== undefined
        ? { serverCpuMsPerCall: Math.round(((cpuMs(child.pid)! - cpuAtHalf) / calls) * 1000) / 1000 }
        : {}),
      pgCpuMsPerCall: Math.round((pgCpu / calls) * 1000) / 1000,
      windows,
      ...(raw
        ? {
            raw: stat(rawTimes.slice(half)),
            rawPgCpuMsPerPair: Math.round((rawPgCpu / calls) * 1000) / 1000,
            ratio: round(stat(times.slice(half)).p50 / stat(rawTimes.slice(half)).p50),
          }
        : {}),
      ...(profile ? { profileDir } : {}),
    };
  } finally {
    await server.stop();
  }
}

runIfMain(import.meta.url, steady);
