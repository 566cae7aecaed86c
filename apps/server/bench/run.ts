// npm run bench: prints the figures and writes them to bench-results/latest.json (repo root).
// Every figure of one run comes from this one process on the same machine; quote ratios, not absolutes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BASIC, captchaLogin, load, median, prebuilt, printFigure, spawnNode, stop, waitFor } from './lib.ts';
import { measureWire } from './bundles.ts';
import { benchUsers } from './users.ts';
import { benchClients } from './clients.ts';
import { benchLoad } from './load.ts';
import { benchRevocation } from './revocation.ts';
import { benchShutdown } from './shutdown.ts';
import { benchMqtt } from './mqtt.ts';
import { benchVideo } from './video.ts';
import { benchDevices } from './devices.ts';
import { benchFlowEngine } from './flow-engine.ts';
import { benchFlowLists } from './flow-lists.ts';
import { benchAudit } from './audit.ts';
import { benchTenantMove } from './tenant-move.ts';
import { benchOss } from './oss.ts';
import { metricsCost } from './metrics.ts';
import { benchReport } from './report.ts';
import { benchClusterScale } from './cluster-scale.ts';

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
// BENCH_ONLY=wire (or a comma list: start,routes,users,clients,wire,load,revocation,shutdown,mqtt,devices,flow,flowlists,audit,oss,metrics,report,cluster-scale,tenant-move) runs only those sections.
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const runs = (section: string) => !only || only.includes(section);
const print = printFigure;

async function startTimes() {
  // The server as `npm start` runs it, built before the clock starts (the build is timed by the npm start runs below).
  const main = await prebuilt('src/main.ts', serverDir);
  const started = (env: Record<string, string>) =>
    spawn(process.execPath, main.args, {
      cwd: serverDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-start-'));
  const env = { PORT: '8093', ATRIUM_DATA_DIR: dir, LOG_LEVEL: 'warn' };
  const first: number[] = [];
  const cold: number[] = [];
  for (let i = 0; i < 3; i++) {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-first-'));
    const t0 = performance.now();
    const child = started({ ...env, ATRIUM_DATA_DIR: fresh });
    await waitFor('http://127.0.0.1:8093/api/blade-system/tenant/info?domain=x', 120_000);
    first.push(performance.now() - t0);
    await stop(child);
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  // Existing data dir: migrate + seed once, then time plain restarts.
  const prep = started(env);
  await waitFor('http://127.0.0.1:8093/api/blade-system/tenant/info?domain=x', 120_000);
  await stop(prep);
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const child = started(env);
    await waitFor('http://127.0.0.1:8093/api/blade-system/tenant/info?domain=x', 60_000);
    cold.push(performance.now() - t0);
    await stop(child);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  main.remove();
  results.startFirstMs = { median: Math.round(median(first)), runs: first.map(Math.round) };
  results.startColdMs = { median: Math.round(median(cold)), runs: cold.map(Math.round) };
  print('first start (migrate + seed), spawn→answering', results.startFirstMs);
  print('cold start on existing data dir', results.startColdMs);

  // `npm start` as a person types it in the repo root, on one data dir: the first run builds whatever changed and
  // seeds; the next ones find the builds current (scripts/start.mjs). Spawn of npm → first answer.
  const npmDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-npm-start-'));
  const npmRuns: number[] = [];
  for (let i = 0; i < 4; i++) {
    const t0 = performance.now();
    const child = spawn('npm', ['start'], {
      cwd: root,
      env: { ...process.env, ...env, ATRIUM_DATA_DIR: npmDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.resume();
    child.stderr!.resume();
    await waitFor('http://127.0.0.1:8093/api/blade-system/tenant/info?domain=x', 600_000);
    npmRuns.push(performance.now() - t0);
    await stop(child);
  }
  fs.rmSync(npmDir, { recursive: true, force: true });
  const again = npmRuns.slice(1);
  results.npmStartFirstMs = Math.round(npmRuns[0]);
  results.npmStartSecondMs = { median: Math.round(median(again)), runs: again.map(Math.round) };
  print('first npm start (builds what changed, seeds)', results.npmStartFirstMs);
  print('second npm start, spawn→answering', results.npmStartSecondMs);
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
  if (runs('start')) await startTimes();
  if (runs('routes')) await routesVersusBare();
  // The user page over 1,000,000 users in a throwaway PostgreSQL database (bench/users.ts); BENCH_USERS=0 skips it.
  // No PostgreSQL on this machine: the failure is recorded and printed, the other figures still land.
  if (runs('users') && process.env.BENCH_USERS !== '0') {
    results.userPage = await benchUsers(serverDir, print).catch((err: Error) => {
      console.error(`user page bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // The client page of a district's region admin over 1,000,000 clients (bench/clients.ts), likewise.
  if (runs('clients')) {
    results.clientPage = await benchClients(serverDir, print).catch((err: Error) => {
      console.error(`client page bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  if (runs('wire')) {
    const wire = await measureWire(serverDir);
    results.wire = wire;
    print('on the wire: /login (kB, requests)', [wire.loginPage.kB, wire.loginPage.requests]);
    print('on the wire: shell + home after login', [wire.shellAndHome.kB, wire.shellAndHome.requests]);
    print('on the wire: /login to home, all (kB)', wire.toHome.kB);
    print('  by type, /login to home (kB)', wire.toHome.byTypeKb);
    print('  scripts sent as', wire.encodings.join(', '));
    print('on the wire: 流程跟踪 (kB, requests)', [wire.flow.followScreen.kB, wire.flow.followScreen.requests]);
    print('on the wire: its diagram, the viewer (kB, requests)', [wire.flow.viewer.kB, wire.flow.viewer.requests]);
    print('on the wire: 模型管理 (kB, requests)', [wire.flow.modelScreen.kB, wire.flow.modelScreen.requests]);
    print('on the wire: its modeler drawer (kB, requests)', [wire.flow.modeler.kB, wire.flow.modeler.requests]);
    print("on the wire: a model's 查看 (kB, requests)", [wire.flow.modelView.kB, wire.flow.modelView.requests]);
    if (wire.overBudget.length) {
      console.error(`over the budget of docs/web.md "Bundle budget": ${wire.overBudget.join('; ')}`);
      process.exitCode = 1;
    }
  }
  // 200 connections of reads and user creates on PostgreSQL beside an unrelated GET (bench/load.ts); skipped with a
  // message when no PostgreSQL answers.
  if (runs('load')) {
    results.load = await benchLoad(serverDir, print).catch((err: Error) => {
      console.error(`load bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // The live-state check on and off for a cached call, on PGlite and PostgreSQL (bench/revocation.ts).
  if (runs('revocation')) {
    results.revocation = await benchRevocation(serverDir, print).catch((err: Error) => {
      console.error(`revocation bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // SIGTERM to `npm start` with and without slow clients (bench/shutdown.ts).
  if (runs('shutdown')) {
    results.shutdown = await benchShutdown(serverDir, print).catch((err: Error) => {
      console.error(`shutdown bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // Device status messages through the embedded broker and the machine's Mosquitto (bench/mqtt.ts).
  if (runs('mqtt')) {
    results.mqtt = await benchMqtt(serverDir, print).catch((err: Error) => {
      console.error(`mqtt bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // 1,000,000 devices and 300,000 channels: the camera page and the statistics calls (bench/devices.ts).
  if (runs('devices')) {
    results.devices = await benchDevices(serverDir, print).catch((err: Error) => {
      console.error(`devices bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // The workflow engine's starts and completes, services only, on PostgreSQL (bench/flow-engine.ts).
  if (runs('flow')) {
    results.flowEngine = await benchFlowEngine().catch((err: Error) => {
      console.error(`flow engine bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // The workflow's lists over 10,000 running instances and the restart, on PostgreSQL (bench/flow-lists.ts).
  if (runs('flowlists')) {
    results.flowLists = await benchFlowLists(serverDir, print).catch((err: Error) => {
      console.error(`flow lists bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // The audit viewer's filtered pages at 10,000,000 audit rows, on PostgreSQL (bench/audit.ts).
  if (runs('audit')) {
    results.audit = await benchAudit(serverDir, print).catch((err: Error) => {
      console.error(`audit bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // A tenant of 100,000 clients and 1,000,000 cameras moved to its own database and back (bench/tenant-move.ts).
  if (runs('tenant-move')) {
    results.tenantMove = await benchTenantMove(serverDir, print).catch((err: Error) => {
      console.error(`tenant-move bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // Object storage: 100 MB up and down through the disk and S3 (s3rver), RSS during 20 uploads at once (bench/oss.ts).
  if (runs('oss')) {
    results.oss = await benchOss(serverDir, print).catch((err: Error) => {
      console.error(`oss bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // The metrics' cost per request: a list call on two servers, without and with metrics, in turn (bench/metrics.ts).
  if (runs('metrics')) {
    results.metrics = await metricsCost(serverDir).catch((err: Error) => {
      console.error(`metrics bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
    print('metrics', results.metrics);
  }
  // The client page through nginx with 1 and 2 servers (bench/cluster-scale.ts; needs nginx and mosquitto).
  if (runs('cluster-scale')) {
    results.clusterScale = await benchClusterScale(serverDir, print).catch((err: Error) => {
      console.error(`cluster scale bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // Reports: 1,000,000 rows exported as csv and xlsx, time and the server's peak RSS (bench/report.ts).
  if (runs('report')) {
    results.report = await benchReport(serverDir, print).catch((err: Error) => {
      console.error(`report bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  // Live video: first playable segment and CPU per copied stream, on the loopback test camera (bench/video.ts).
  if (runs('video')) {
    results.video = await benchVideo(serverDir, print).catch((err: Error) => {
      console.error(`video bench failed: ${err.stack ?? err}`);
      return { error: err.message };
    });
  }
  const out = path.join(root, 'bench-results');
  const file = path.join(out, only ? `only-${only.join('-')}.json` : 'latest.json');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
