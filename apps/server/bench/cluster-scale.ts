// Scaling behind nginx (issue 28 "Done when"; docs/cluster.md "Scaling bench"): `scripts/cluster.sh 2` on a throwaway
// PostgreSQL database, BENCH_CLUSTER_TENANTS (20) tenants of 10,000 clients each (bench/clients.ts's seed) and the
// region admin of the middle tenant, then GET clientInfo/page (page 1, size 10) under autocannon
// (BENCH_CLUSTER_SCALE_CONNECTIONS, 32, for BENCH_CLUSTER_SCALE_SECONDS, 15) through nginx with 1 server (the script's
// CLUSTER_ONE_PORT entry: s1 alone) and with 2 servers (round robin), BENCH_CLUSTER_SCALE_ROUNDS (2) times in turn after
// a warm-up of both (BENCH_CLUSTER_SCALE_WARM seconds, 10). Each phase: requests/s, p50/p99, and CPU per request
// from /proc — the servers', PostgreSQL's (the backends of this database) and nginx's (master and worker) — printed
// as one table with the load average.
// One command: `BENCH_ONLY=cluster-scale npm run bench` (or `cd apps/server && npx tsx bench/cluster-scale.ts`).
// Ports: BENCH_CLUSTER_PORT (8170: nginx; the servers 8171, 8172; one server behind nginx 8180),
// BENCH_CLUSTER_MQTT_PORT (18831). BENCH_CLUSTER_KEEP_DB=1 keeps the database.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { adminToken } from '../scripts/simulate.ts';
import { ACCOUNT, loginTenantOf, PASSWORD, regionAdmin, seed } from './clients.ts';
import { BASIC, cpuMs, dropBenchDb, printFigure, round, runIfMain, sleep, type Log } from './lib.ts';

export type ScalePhase = {
  servers: number;
  round: number;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  /** CPU per request (ms): the servers', PostgreSQL's backends', nginx's, and all together. */
  cpuMsPerRequest: { servers: number; postgres: number; nginx: number; total: number };
  /** CPU per request of each server (ms): s2's is 0 in the one-server phases. */
  perServer: Record<string, number>;
  loadAverage: number;
};

/** Processes whose /proc/<pid>/cmdline passes `match`, and whose parent passes `parent` when given. */
function pidsWhere(match: (cmd: string, ppid: number) => boolean): number[] {
  const out: number[] = [];
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const ppid = Number(fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (match(cmd, ppid)) out.push(Number(p));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

export async function benchClusterScale(serverDir: string, log: Log = printFigure): Promise<ScalePhase[]> {
  const root = path.resolve(serverDir, '../..');
  const port = Number(process.env.BENCH_CLUSTER_PORT ?? 8170);
  const onePort = port + 10;
  const mqttPort = Number(process.env.BENCH_CLUSTER_MQTT_PORT ?? 18831);
  const tenants = Number(process.env.BENCH_CLUSTER_TENANTS ?? 20);
  const seconds = Number(process.env.BENCH_CLUSTER_SCALE_SECONDS ?? 15);
  const warmSeconds = Number(process.env.BENCH_CLUSTER_SCALE_WARM ?? 10);
  const connections = Number(process.env.BENCH_CLUSTER_SCALE_CONNECTIONS ?? 32);
  const rounds = Number(process.env.BENCH_CLUSTER_SCALE_ROUNDS ?? 2);
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `atrium_bench_${randomBytes(4).toString('hex')}`;
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-cluster-scale-'));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const ready = path.join(dir, 'ready');
  const cluster = spawn('bash', [path.join(root, 'scripts/cluster.sh'), 'start', '2'], {
    env: {
      ...process.env,
      CLUSTER_PORT: String(port),
      CLUSTER_ONE_PORT: String(onePort),
      CLUSTER_MQTT_PORT: String(mqttPort),
      CLUSTER_DIR: dir,
      CLUSTER_READY_FILE: ready,
      DATABASE_URL: dbUrl.toString(),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', fs.openSync(path.join(dir, 'cluster.log'), 'a'), fs.openSync(path.join(dir, 'cluster.log'), 'a')],
  });
  let exited = false;
  cluster.on('exit', () => (exited = true));
  const phases: ScalePhase[] = [];
  try {
    for (let i = 0; i < 3000 && !fs.existsSync(ready); i++) {
      if (exited) break;
      await sleep(100);
    }
    if (!fs.existsSync(ready))
      throw new Error(
        `the cluster did not start: ${fs.readFileSync(path.join(dir, 'cluster.log'), 'utf8').slice(-2000)}`,
      );

    // The clients and the region admin, written directly (the servers have migrated and seeded the platform data).
    const c = new pg.Client({ connectionString: dbUrl.toString() });
    await c.connect();
    const t0 = performance.now();
    const loginTenant = loginTenantOf(tenants);
    await seed(c, tenants);
    const [top] = (
      await c.query<{ code: string; n: number }>(
        `select region_code as code, count(*)::int as n from client_info where tenant_id = $1 group by region_code
          order by n desc, region_code limit 1`,
        [loginTenant],
      )
    ).rows;
    await regionAdmin(c, top.code, loginTenant);
    await c.end();
    log(
      'cluster scale: seeded',
      `${tenants * 10_000} clients in ${Math.round(performance.now() - t0)} ms; region admin of ${top.code} (${top.n} clients)`,
    );

    const token = await adminToken({
      api: `http://127.0.0.1:${port}`,
      tenant: loginTenant,
      user: ACCOUNT,
      password: PASSWORD,
    });
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
    const pagePath = '/api/blade-business/clientInfo/page?current=1&size=10';
    const servers = [1, 2].map((i) => ({
      name: `s${i}`,
      pid: Number(fs.readFileSync(path.join(dir, `server-${i}.pid`), 'utf8')),
    }));
    const nginxMaster = Number(fs.readFileSync(path.join(dir, 'nginx.pid'), 'utf8'));
    const nginxPids = () => [nginxMaster, ...pidsWhere((_cmd, ppid) => ppid === nginxMaster)];
    const pgPids = () => pidsWhere((cmd) => cmd.startsWith('postgres: ') && cmd.includes(` ${dbName} `));
    const cpuOf = (pids: number[]) => new Map(pids.map((p) => [p, cpuMs(p) ?? 0]));
    const spent = (before: Map<number, number>, pids: number[]) =>
      pids.reduce((sum, p) => sum + (cpuMs(p) ?? before.get(p) ?? 0) - (before.get(p) ?? 0), 0);

    const hammer = (p: number, duration: number) =>
      new Promise<autocannon.Result>((resolve, reject) =>
        autocannon(
          { url: `http://127.0.0.1:${p}${pagePath}`, headers, connections, duration, pipelining: 1 },
          (err, r) => (err ? reject(err) : resolve(r)),
        ),
      );
    // Both servers warmed (their code keeps getting faster over the first thousands of calls: bench/clients.ts).
    await hammer(port, warmSeconds);

    for (let r = 1; r <= rounds; r++) {
      for (const [count, p] of [
        [1, onePort],
        [2, port],
      ] as const) {
        const serverBefore = servers.map((s) => cpuMs(s.pid) ?? 0);
        const pgBefore = cpuOf(pgPids());
        const nginxBefore = cpuOf(nginxPids());
        const res = await hammer(p, seconds);
        const perServerMs = servers.map((s, i) => (cpuMs(s.pid) ?? 0) - serverBefore[i]);
        const pgMs = spent(pgBefore, pgPids());
        const nginxMs = spent(nginxBefore, nginxPids());
        const n = res.requests.total || 1;
        const serverMs = perServerMs.reduce((a, b) => a + b, 0);
        const phase: ScalePhase = {
          servers: count,
          round: r,
          rps: Math.round(res.requests.total / seconds),
          p50: res.latency.p50,
          p99: res.latency.p99,
          failed: res.errors + res.timeouts + res.non2xx,
          cpuMsPerRequest: {
            servers: round(serverMs / n),
            postgres: round(pgMs / n),
            nginx: round(nginxMs / n),
            total: round((serverMs + pgMs + nginxMs) / n),
          },
          perServer: Object.fromEntries(servers.map((s, i) => [s.name, round(perServerMs[i] / n)])),
          loadAverage: round(os.loadavg()[0]),
        };
        phases.push(phase);
        log(`cluster scale: ${count} server(s) behind nginx, round ${r}`, phase);
      }
    }
    const rows = phases.map(
      (f) =>
        `| ${f.servers} | ${f.round} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.failed} | ${f.cpuMsPerRequest.servers} ` +
        `(${Object.values(f.perServer).join(' + ')}) | ${f.cpuMsPerRequest.postgres} | ${f.cpuMsPerRequest.nginx} | ` +
        `${f.cpuMsPerRequest.total} | ${f.loadAverage} |`,
    );
    console.log(
      [
        '',
        `clientInfo/page (page 1, size 10, region admin) through nginx, ${connections} connections, ${seconds} s a phase, ` +
          `${os.cpus().length} cores`,
        '| servers | round | req/s | p50 ms | p99 ms | failed | CPU ms/req servers (s1 + s2) | PostgreSQL | nginx | total | load avg |',
        '|---|---|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
    return phases;
  } finally {
    cluster.kill('SIGTERM');
    for (let i = 0; i < 300 && !exited; i++) await sleep(100);
    await dropBenchDb(admin, dbName, 'BENCH_CLUSTER_KEEP_DB');
    await admin.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, (serverDir) => benchClusterScale(serverDir));
