// One endpoint in its steady state, for work on the client page's time (docs/clients.md "Bench"): a server on a
// database the client-page bench kept (`BENCH_CLIENTS_KEEP_DB=1`), the bench's region admin logged in, then N calls
// one at a time with a keep-alive client; prints p50/p99 of all calls and of the last half (after the server's code
// is optimised) and the server's CPU time per call over the last half. `STEADY_PROFILE=1` writes the server's CPU profile to STEADY_PROFILE_DIR (default /tmp/atrium-prof),
// summarised by `node bench/cpu-summary.mjs <file>` (self and inclusive time by package and by function).
// Usage: `cd apps/server && STEADY_DB=atrium_bench_xxxx npx tsx bench/steady.ts`. Knobs: STEADY_N (3000), STEADY_PATH
// (the client page, page 1), STEADY_PORT (18431), BENCH_PG_URL (the server holding STEADY_DB).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BASIC, captchaLogin, keepAliveGet, runIfMain, sleep, stat, waitFor } from './lib.ts';

export async function steady(serverDir: string) {
  const dbName = process.env.STEADY_DB;
  if (!dbName) throw new Error('STEADY_DB: name a database kept by the client-page bench (BENCH_CLIENTS_KEEP_DB=1)');
  const url = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${dbName}`;
  const port = Number(process.env.STEADY_PORT ?? 18431);
  const n = Number(process.env.STEADY_N ?? 3000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-steady-'));
  const captchaFile = path.join(dir, 'captchas.txt');
  const profile = process.env.STEADY_PROFILE === '1';
  const profileDir = process.env.STEADY_PROFILE_DIR ?? path.join(os.tmpdir(), 'atrium-prof');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      'test/captcha-file-server.ts',
    ],
    {
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: url.toString(),
        LOG_LEVEL: 'warn',
        ATRIUM_DATA_DIR: dir,
        ATRIUM_E2E_CAPTCHA_FILE: captchaFile,
      },
      cwd: serverDir,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/blade-system/tenant/info?domain=x`);
    const token = await captchaLogin(base, captchaFile, 'region_bench', 'Bench-region-1', '100050');
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
    const target = base + (process.env.STEADY_PATH ?? '/api/blade-business/clientInfo/page?current=1&size=10');
    const times: number[] = [];
    let cpuAtHalf: number | undefined;
    for (let i = 0; i < n; i++) {
      if (i === Math.floor(n / 2)) cpuAtHalf = cpuMs(child.pid);
      const t = performance.now();
      const status = await keepAliveGet(target, headers);
      times.push(performance.now() - t);
      if (status !== 200) throw new Error(`${target} answered ${status}`);
    }
    return {
      path: target.slice(base.length),
      all: stat(times),
      lastHalf: stat(times.slice(n / 2)),
      // The server's own CPU per call over the last half (user + system, Linux): steadier than latency on a shared
      // machine, where a neighbour's load moves every wait.
      ...(cpuAtHalf !== undefined && cpuMs(child.pid) !== undefined
        ? { serverCpuMsPerCall: Math.round(((cpuMs(child.pid)! - cpuAtHalf) / (n - Math.floor(n / 2))) * 1000) / 1000 }
        : {}),
      ...(profile ? { profileDir } : {}),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await sleep(100);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A process's CPU time so far (user + system, ms) from /proc; undefined where there is none. */
function cpuMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of the whole line (11 and 12 after the command's closing parenthesis).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every mainstream build). */
const CLOCK_TICKS = 100;

runIfMain(import.meta.url, steady);
