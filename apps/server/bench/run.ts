// npm run bench: prints the figures and writes them to bench-results/latest.json (repo root).
// Every figure of one run comes from this one process on the same machine; quote ratios, not absolutes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASIC, captchaLogin, load, median, spawnNode, stop, waitFor } from './lib.ts';
import { measureBundles } from './bundles.ts';
import { benchUsers } from './users.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '..');
const root = path.resolve(serverDir, '../..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  node: process.version,
  seconds,
};
const print = (label: string, v: unknown) =>
  console.log(`${label.padEnd(48)} ${typeof v === 'object' ? JSON.stringify(v) : v}`);

async function startTimes() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-start-'));
  const env = { PORT: '8093', ATRIUM_DATA_DIR: dir, LOG_LEVEL: 'warn' };
  const first: number[] = [];
  const cold: number[] = [];
  for (let i = 0; i < 3; i++) {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-first-'));
    const t0 = performance.now();
    const child = spawnNode(['src/main.ts'], { ...env, ATRIUM_DATA_DIR: fresh }, serverDir);
    await waitFor('http://127.0.0.1:8093/api/blade-system/tenant/info?domain=x', 120_000);
    first.push(performance.now() - t0);
    await stop(child);
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  // Existing data dir: migrate + seed once, then time plain restarts.
  const prep = spawnNode(['src/main.ts'], env, serverDir);
  await waitFor('http://127.0.0.1:8093/api/blade-system/tenant/info?domain=x', 120_000);
  await stop(prep);
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const child = spawnNode(['src/main.ts'], env, serverDir);
    await waitFor('http://127.0.0.1:8093/api/blade-system/tenant/info?domain=x', 60_000);
    cold.push(performance.now() - t0);
    await stop(child);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  results.startFirstMs = { median: Math.round(median(first)), runs: first.map(Math.round) };
  results.startColdMs = { median: Math.round(median(cold)), runs: cold.map(Math.round) };
  print('first start (migrate + seed), spawn→answering', results.startFirstMs);
  print('cold start on existing data dir', results.startColdMs);
}

async function routesVersusBare() {
  const bare = spawnNode(['bench/bare.ts'], { PORT: '8094' }, serverDir);
  await waitFor('http://127.0.0.1:8094/bare');
  await load('http://127.0.0.1:8094/bare', {}, 2); // warm-up
  const bareLoad = await load('http://127.0.0.1:8094/bare', {}, seconds);
  const bareBigLoad = await load('http://127.0.0.1:8094/bare-big', {}, seconds);
  await stop(bare);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-'));
  const captchaFile = path.join(dir, 'captchas.txt');
  const server = spawnNode(
    ['test/captcha-file-server.ts'],
    { PORT: '8095', ATRIUM_DATA_DIR: dir, LOG_LEVEL: 'warn', ATRIUM_E2E_CAPTCHA_FILE: captchaFile },
    serverDir,
  );
  const base = 'http://127.0.0.1:8095';
  await waitFor(`${base}/api/blade-system/tenant/info?domain=x`, 120_000);
  const token = await captchaLogin(base, captchaFile);
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
  const check = await fetch(`${base}/api/blade-system/menu/routes`, { headers });
  if (check.status !== 200) throw new Error(`routes answered ${check.status}`);
  await load(`${base}/api/blade-system/menu/routes`, headers, 2);
  const routesLoad = await load(`${base}/api/blade-system/menu/routes`, headers, seconds);
  await stop(server);
  fs.rmSync(dir, { recursive: true, force: true });
  results.bare = bareLoad;
  results.bareSamePayload = bareBigLoad;
  results.routes = routesLoad;
  results.routesToBare = Math.round((routesLoad.rps / bareLoad.rps) * 1000) / 10;
  print('bare Fastify JSON (req/s, p50, p99 ms)', bareLoad);
  print('bare Fastify, same 12.8 kB payload', bareBigLoad);
  print('GET /api/blade-system/menu/routes', routesLoad);
  results.routesToBareSamePayload = Math.round((routesLoad.rps / bareBigLoad.rps) * 1000) / 10;
  print('routes / bare (%)', results.routesToBare);
  print('routes / bare with the same payload (%)', results.routesToBareSamePayload);
}

async function main() {
  await startTimes();
  await routesVersusBare();
  // The user page over 1,000,000 users in a throwaway PostgreSQL database (bench/users.ts); BENCH_USERS=0 skips it.
  // No PostgreSQL on this machine: the failure is recorded and printed, the other figures still land.
  if (process.env.BENCH_USERS !== '0') {
    results.userPage = await benchUsers(serverDir, print).catch((err: Error) => {
      console.error(`user page bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  results.bundles = await measureBundles(serverDir);
  print('gzipped JS: login page / shell + home (kB)', results.bundles);
  const out = path.join(root, 'bench-results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'latest.json'), JSON.stringify(results, null, 2));
  console.log(`\nwritten to ${path.relative(process.cwd(), path.join(out, 'latest.json'))}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
