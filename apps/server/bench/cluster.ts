// Failover through nginx (docs/cluster.md "Failover"): against a cluster started by `scripts/cluster.sh` (CLUSTER_URL,
// default http://127.0.0.1:8160; its pids in CLUSTER_DIR, default /tmp/atrium-cluster-8160; its broker CLUSTER_MQTT_URL,
// default mqtt://127.0.0.1:18830), BENCH_CLUSTER_CONNECTIONS (200) autocannon connections for BENCH_CLUSTER_SECONDS (20)
// as the platform administrator: four reads and one parameter created (a write without the password hash queue of a
// user's creation), round and round; meanwhile BENCH_CLUSTER_DEVICES (40) devices send signed heartbeats through the
// broker at BENCH_CLUSTER_RATE (40) messages/s. After BENCH_CLUSTER_KILL_AT seconds (8) the server named
// BENCH_CLUSTER_KILL (s2) gets SIGKILL. Reports the answers by status and by server, the client errors (non-2xx
// answers, connection errors, timeouts) and when they happened relative to the kill, the failover time (from the kill
// to the last failed answer, and to the last answer that took more than 1 s), the parameters created as acknowledged
// (200) against those found in the database (DATABASE_URL of the cluster, default
// postgres://postgres@127.0.0.1:5432/atrium_cluster_8160), and device ingest across the kill: the gap in the writes of
// `last_seen` and the first message published after the kill that is in the database.
// BENCH_CLUSTER_CHECK=1 (CI, `scripts/cluster.sh e2e`): also asserts what docs/cluster.md "Failover" promises and exits
// 1 when something does not hold (a JSON report for .ci/summarize.mjs in ATRIUM_REPORT_DIR).
// Alone: `cd apps/server && npx tsx bench/cluster.ts` (it restarts nothing: start the cluster again after it).
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import mqtt from 'mqtt';
import pg from 'pg';
import { signedMessage } from '../src/modules/device-access/signing.ts';
import { ensureDevices, type SimDevice } from '../scripts/simulate.ts';
import { clusterToken } from '../scripts/cluster-check.ts';
import { BASIC, pct, round, sleep } from './lib.ts';

const base = process.env.CLUSTER_URL ?? 'http://127.0.0.1:8160';
const dir = process.env.CLUSTER_DIR ?? '/tmp/atrium-cluster-8160';
const mqttUrl = process.env.CLUSTER_MQTT_URL ?? 'mqtt://127.0.0.1:18830';
const seconds = Number(process.env.BENCH_CLUSTER_SECONDS ?? 20);
const killAt = Number(process.env.BENCH_CLUSTER_KILL_AT ?? 8);
const victim = process.env.BENCH_CLUSTER_KILL ?? 's2';
const connections = Number(process.env.BENCH_CLUSTER_CONNECTIONS ?? 200);
const deviceCount = Number(process.env.BENCH_CLUSTER_DEVICES ?? 40);
const rate = Number(process.env.BENCH_CLUSTER_RATE ?? 40);
const dbUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/atrium_cluster_8160';
const checking = process.env.BENCH_CLUSTER_CHECK === '1';
const TENANT = '000000';

const READS = [
  '/api/blade-user/page?current=1&size=10',
  '/api/blade-system/menu/routes',
  '/api/blade-user/info',
  '/api/blade-system/dept/tree',
];

type Ingest = {
  published: number;
  /** Every device's last message (ts) of the run. */
  lastTs: Map<string, number>;
  /** Wall time (ms from the start) of the first message published after the kill. */
  firstAfterKill?: { code: string; ts: number };
};

/**
 * Heartbeats of `devices` through the broker, round robin at `rate`/s (QoS 1, one connection: the broker is anonymous
 * in this set-up; the servers check each message's signature), until `signal` aborts.
 */
async function heartbeats(devices: SimDevice[], signal: AbortSignal, killed: () => number | undefined) {
  const client = await mqtt.connectAsync(mqttUrl, { clientId: `cl-bench-${process.pid}`, reconnectPeriod: 500 });
  const out: Ingest = { published: 0, lastTs: new Map() };
  let ts = Date.now();
  const t0 = performance.now();
  let i = 0;
  while (!signal.aborted) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate) + 1;
    while (out.published < due) {
      const d = devices[i++ % devices.length];
      ts = Math.max(Date.now(), ts + 1);
      const m = signedMessage(d.secret, TENANT, d.code, { online: true, ts });
      client.publish(m.topic, m.payload, { qos: 1 });
      out.lastTs.set(d.code, ts);
      out.published++;
      const k = killed();
      if (k !== undefined && !out.firstAfterKill && ts > k) out.firstAfterKill = { code: d.code, ts };
    }
    await sleep(5);
  }
  await client.endAsync();
  return out;
}

async function main() {
  const token = await clusterToken(base, dir);
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
  const pidFile = path.join(dir, `server-${victim.replace(/^s/, '')}.pid`);
  const pid = Number(fs.readFileSync(pidFile, 'utf8'));
  const devices = await ensureDevices({
    api: base,
    token,
    count: deviceCount,
    file: path.join(dir, 'bench-devices.json'),
    region: '110101',
    type: '132',
  });
  const codes = devices.map((d) => d.code);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  /** The newest `last_seen` of the bench's devices (ms since 1970; the cluster's database owner reads past RLS). */
  const newestSeen = async () => {
    const r = await db.query<{ ms: string | null }>(
      `select round(extract(epoch from max(last_seen)) * 1000)::bigint::text as ms from camera_device
        where tenant_id = $1 and device_code = any($2)`,
      [TENANT, codes],
    );
    return Number(r.rows[0].ms ?? 0);
  };

  const run = randomBytes(3).toString('hex');
  let sent = 0;
  const answered = new Map<string, number>();
  const t0 = performance.now();
  const wall0 = Date.now();
  let killedAt = Infinity;
  const at = () => performance.now() - t0;
  /** Every answer: when it came (ms from the start), its status, which server, how long it took. */
  const answers: { at: number; status: number; server: string; ms: number; write: boolean }[] = [];
  const failures: { at: number; what: string; write: boolean }[] = [];
  type Ctx = { account?: string; sentAt?: number };
  const onResponse = (status: number, _body: string, context: Ctx, resHeaders?: IncomingHttpHeaders) => {
    const server = String(resHeaders?.['x-atrium-server'] ?? 'nginx');
    const now = at();
    const write = context.account !== undefined;
    answers.push({ at: now, status, server, ms: now - (context.sentAt ?? now), write });
    if (status < 200 || status >= 300) failures.push({ at: now, what: `${status}`, write });
    if (context.account) answered.set(context.account, status);
    context.account = undefined;
  };
  const timed = (
    r: autocannon.Request & { setupRequest?: (req: autocannon.Request, c: Ctx) => autocannon.Request },
  ) => ({
    ...r,
    setupRequest: (req: autocannon.Request, context: Ctx) => {
      context.sentAt = at();
      return r.setupRequest ? r.setupRequest(req, context) : req;
    },
    onResponse,
  });
  const create = {
    method: 'POST' as const,
    path: '/api/blade-system/param/submit',
    headers: { ...headers, 'content-type': 'application/json' },
    setupRequest: (req: autocannon.Request, context: Ctx) => {
      const account = `cl.${run}.${++sent}`;
      context.account = account;
      return { ...req, body: JSON.stringify({ paramName: 'cluster bench', paramKey: account, paramValue: '1' }) };
    },
  };
  const requests = [...READS.map((p) => ({ method: 'GET' as const, path: p, headers })), create].map((r) =>
    timed(r as Parameters<typeof timed>[0]),
  );

  // Device ingest: heartbeats through the broker, and the newest last_seen in the database polled every 100 ms.
  const stopIngest = new AbortController();
  let killWall: number | undefined;
  const ingest = heartbeats(devices, stopIngest.signal, () => killWall);
  const seen: { at: number; newest: number }[] = [];
  const poller = (async () => {
    while (!stopIngest.signal.aborted) {
      seen.push({ at: at(), newest: await newestSeen() });
      await sleep(100);
    }
  })();

  const killer = setTimeout(() => {
    killedAt = at();
    killWall = wall0 + killedAt;
    process.kill(pid, 'SIGKILL');
    console.log(`[cluster bench] SIGKILL to ${victim} (pid ${pid}) at ${round(killedAt / 1000)} s`);
  }, killAt * 1000);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: base, connections, duration: seconds, timeout: 10, requests }, (err, r) =>
      err ? reject(err) : resolve(r),
    );
    instance.on('reqError', (err: Error) => failures.push({ at: at(), what: err.message.slice(0, 60), write: false }));
  });
  clearTimeout(killer);
  stopIngest.abort();
  const published = await ingest;
  await poller;
  // What was published last is written within a flush (0.5 s): wait for it, at most 5 s.
  const lastOf = [...published.lastTs];
  let missingDevices = lastOf.length;
  for (let i = 0; i < 50 && missingDevices > 0; i++) {
    const r = await db.query<{ code: string; ms: string }>(
      `select device_code as code, round(extract(epoch from last_seen) * 1000)::bigint::text as ms from camera_device
        where tenant_id = $1 and device_code = any($2)`,
      [TENANT, codes],
    );
    const inDb = new Map(r.rows.map((x) => [x.code, Number(x.ms)]));
    missingDevices = lastOf.filter(([code, ts]) => inDb.get(code) !== ts).length;
    if (missingDevices) await sleep(100);
  }
  // The first message published after the kill: when it was in the database (from the polls).
  const firstAfter = published.firstAfterKill;
  const firstAfterWritten = firstAfter ? seen.find((s) => s.newest >= firstAfter.ts) : undefined;
  // The longest stretch without a new last_seen written, from a second before the kill to 10 s after it.
  let gap = 0;
  let lastAdvance: number | undefined;
  for (let i = 1; i < seen.length; i++) {
    if (seen[i].newest <= seen[i - 1].newest) continue;
    if (lastAdvance !== undefined && seen[i].at > killedAt - 1000 && seen[i].at < killedAt + 10_000)
      gap = Math.max(gap, seen[i].at - lastAdvance);
    lastAdvance = seen[i].at;
  }

  // Acknowledged creates against the database.
  const found = new Set(
    (
      await db.query<{ account: string }>(`select param_key as account from param where param_key like $1`, [
        `cl.${run}.%`,
      ])
    ).rows.map((x) => x.account),
  );
  await db.end();
  let acknowledged = 0;
  let acknowledgedFound = 0;
  for (const [account, status] of answered)
    if (status === 200) {
      acknowledged++;
      if (found.has(account)) acknowledgedFound++;
    }

  const byStatus: Record<string, number> = {};
  const byServer: Record<string, { before: number; after: number }> = {};
  for (const a of answers) {
    byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    const s = (byServer[a.server] ??= { before: 0, after: 0 });
    if (a.at < killedAt) s.before++;
    else s.after++;
  }
  const after = failures.filter((f) => f.at >= killedAt);
  const slowAfter = answers.filter((a) => a.at >= killedAt && a.ms > 1000);
  const lastVictim = answers.filter((a) => a.server === victim).reduce((m, a) => Math.max(m, a.at), 0);
  const lat = answers.map((a) => a.ms);
  const figures = {
    connections,
    seconds,
    killAtSeconds: round(killedAt / 1000),
    requests: answers.length,
    rps: round(answers.length / seconds),
    byStatus,
    byServer,
    clientErrors: failures.length,
    clientErrorsBeforeKill: failures.length - after.length,
    clientErrorsAfterKill: after.length,
    errorKinds: Object.fromEntries(
      [...new Set(failures.map((f) => `${f.write ? 'POST' : 'GET'} ${f.what}`))].map((w) => [
        w,
        failures.filter((f) => `${f.write ? 'POST' : 'GET'} ${f.what}` === w).length,
      ]),
    ),
    timeouts: result.timeouts,
    lastAnswerFromVictimMsAfterKill: round(lastVictim - killedAt),
    failoverMsLastError: after.length ? round(Math.max(...after.map((f) => f.at)) - killedAt) : 0,
    failoverMsLastSlowAnswer: slowAfter.length ? round(Math.max(...slowAfter.map((a) => a.at)) - killedAt) : 0,
    slowAnswersAfterKill: slowAfter.length,
    latencyMs: { p50: round(pct(lat, 50)), p99: round(pct(lat, 99)), max: round(Math.max(...lat)) },
    creates: { sent, acknowledged, acknowledgedFound, inDatabase: found.size },
    ingest: {
      devices: devices.length,
      rate,
      published: published.published,
      devicesWithLastMessageMissing: missingDevices,
      gapMsAroundKill: round(gap),
      firstPublishedAfterKillWrittenMs: firstAfterWritten ? round(firstAfterWritten.at - killedAt) : null,
    },
  };
  // Per second: answers (by server) and failures, so the kill's effect can be read off.
  const timeline: string[] = [];
  for (let sec = 0; sec < seconds + 10; sec++) {
    const inSec = answers.filter((a) => a.at >= sec * 1000 && a.at < (sec + 1) * 1000);
    const failed = failures.filter((f) => f.at >= sec * 1000 && f.at < (sec + 1) * 1000).length;
    if (!inSec.length && !failed) continue;
    const servers = Object.entries(
      inSec.reduce<Record<string, number>>((m, a) => ({ ...m, [a.server]: (m[a.server] ?? 0) + 1 }), {}),
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    timeline.push(
      `${sec}s: ${inSec.length} answers (${servers}), ${failed} failed${sec === Math.floor(killedAt / 1000) ? '  <- SIGKILL' : ''}`,
    );
  }
  console.log(JSON.stringify({ ...figures, loadAverage: os.loadavg()[0], timeline }, null, 2));
  if (!checking) return;

  // What docs/cluster.md "Failover" promises, as pass/fail.
  const survivors = Object.keys(byServer).filter((s) => /^s\d+$/.test(s) && s !== victim);
  const checks: [string, boolean][] = [
    ['no client error before the kill', figures.clientErrorsBeforeKill === 0],
    [
      'after the kill, only 502s of POSTs in flight to the killed server (at most one per connection)',
      after.every((f) => f.write && f.what === '502') && after.length <= connections,
    ],
    ['no client timeout', result.timeouts === 0],
    ['the last client error within 5 s of the kill', figures.failoverMsLastError <= 5000],
    // An answer the killed server sent just before its death may still arrive a moment after the kill.
    ['nothing answered by the killed server later than 1 s after the kill', lastVictim - killedAt < 1000],
    ['the others answered after the kill', survivors.some((s) => byServer[s].after > 0)],
    ['every acknowledged write in the database', acknowledged > 0 && acknowledgedFound === acknowledged],
    ['device ingest: every device\u2019s last message written', missingDevices === 0],
    [
      'device ingest: a message published after the kill written within 5 s of the kill',
      figures.ingest.firstPublishedAfterKillWrittenMs !== null &&
        figures.ingest.firstPublishedAfterKillWrittenMs <= 5000,
    ],
  ];
  for (const [name, ok] of checks) console.log(`[cluster check] ${ok ? 'ok    ' : 'FAILED'} ${name}`);
  const failed = checks.filter(([, ok]) => !ok).length;
  const reports = process.env.ATRIUM_REPORT_DIR;
  if (reports)
    fs.writeFileSync(
      path.join(reports, 'cluster-failover.json'),
      JSON.stringify({ numPassedTests: checks.length - failed, numFailedTests: failed, checks, figures }, null, 1),
    );
  if (failed) process.exitCode = 1;
}

await main();
