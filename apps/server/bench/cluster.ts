// Failover through nginx (docs/cluster.md "Failover"): against a cluster started by `scripts/cluster.sh` (CLUSTER_URL,
// default http://127.0.0.1:8160; its pids in CLUSTER_DIR, default /tmp/atrium-cluster-8160), BENCH_CLUSTER_CONNECTIONS
// (200) autocannon connections for BENCH_CLUSTER_SECONDS (20) as the platform administrator: four reads and one
// parameter created (a write without the password hash queue of a user's creation), round and round. After BENCH_CLUSTER_KILL_AT seconds (8) the server named BENCH_CLUSTER_KILL (s2) gets
// SIGKILL. Reports the answers by status and by server, the client errors (non-2xx answers, connection errors,
// timeouts) and when they happened relative to the kill, the failover time (from the kill to the last failed answer,
// and to the last answer that took more than 1 s), and the parameters created as acknowledged (200) against those found in
// the database (DATABASE_URL of the cluster, default postgres://postgres@127.0.0.1:5432/atrium_cluster_8160).
// Alone: `cd apps/server && npx tsx bench/cluster.ts` (it restarts nothing: start the cluster again after it).
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { BASIC, md5, pct, round } from './lib.ts';

const base = process.env.CLUSTER_URL ?? 'http://127.0.0.1:8160';
const dir = process.env.CLUSTER_DIR ?? '/tmp/atrium-cluster-8160';
const seconds = Number(process.env.BENCH_CLUSTER_SECONDS ?? 20);
const killAt = Number(process.env.BENCH_CLUSTER_KILL_AT ?? 8);
const victim = process.env.BENCH_CLUSTER_KILL ?? 's2';
const connections = Number(process.env.BENCH_CLUSTER_CONNECTIONS ?? 200);
const dbUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/atrium_cluster_8160';

const READS = [
  '/api/blade-user/page?current=1&size=10',
  '/api/blade-system/menu/routes',
  '/api/blade-user/info',
  '/api/blade-system/dept/tree',
];

async function main() {
  const q = new URLSearchParams({
    tenantId: '000000',
    username: 'admin',
    password: md5(process.env.ADMIN_PASSWORD ?? 'admin'),
    grant_type: 'password',
    scope: 'all',
    type: 'account',
  });
  const tokenRes = await fetch(`${base}/api/blade-auth/oauth/token?${q}`, {
    method: 'POST',
    headers: { authorization: BASIC, 'tenant-id': '000000' },
  });
  const token = ((await tokenRes.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`login failed: ${tokenRes.status}`);
  const headers = { authorization: BASIC, 'blade-auth': `bearer ${token}` };
  const pidFile = path.join(dir, `server-${victim.replace(/^s/, '')}.pid`);
  const pid = Number(fs.readFileSync(pidFile, 'utf8'));

  const run = randomBytes(3).toString('hex');
  let sent = 0;
  const answered = new Map<string, number>();
  const t0 = performance.now();
  let killedAt = Infinity;
  const at = () => performance.now() - t0;
  /** Every answer: when it came (ms from the start), its status, which server, how long it took. */
  const answers: { at: number; status: number; server: string; ms: number }[] = [];
  const failures: { at: number; what: string }[] = [];
  type Ctx = { account?: string; sentAt?: number };
  const onResponse = (status: number, _body: string, context: Ctx, resHeaders?: IncomingHttpHeaders) => {
    const server = String(resHeaders?.['x-atrium-server'] ?? '?');
    const now = at();
    answers.push({ at: now, status, server, ms: now - (context.sentAt ?? now) });
    if (status < 200 || status >= 300) failures.push({ at: now, what: String(status) });
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
  const killer = setTimeout(() => {
    killedAt = at();
    process.kill(pid, 'SIGKILL');
    console.log(`[cluster bench] SIGKILL to ${victim} (pid ${pid}) at ${round(killedAt / 1000)} s`);
  }, killAt * 1000);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: base, connections, duration: seconds, timeout: 10, requests }, (err, r) =>
      err ? reject(err) : resolve(r),
    );
    instance.on('reqError', (err: Error) => failures.push({ at: at(), what: err.message.slice(0, 60) }));
  });
  clearTimeout(killer);

  // Acknowledged creates against the database.
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  const found = new Set(
    (
      await c.query<{ account: string }>(`select param_key as account from param where param_key like $1`, [
        `cl.${run}.%`,
      ])
    ).rows.map((x) => x.account),
  );
  await c.end();
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
      [...new Set(failures.map((f) => f.what))].map((w) => [w, failures.filter((f) => f.what === w).length]),
    ),
    timeouts: result.timeouts,
    lastAnswerFromVictimMsAfterKill: round(lastVictim - killedAt),
    failoverMsLastError: after.length ? round(Math.max(...after.map((f) => f.at)) - killedAt) : 0,
    failoverMsLastSlowAnswer: slowAfter.length ? round(Math.max(...slowAfter.map((a) => a.at)) - killedAt) : 0,
    slowAnswersAfterKill: slowAfter.length,
    latencyMs: { p50: round(pct(lat, 50)), p99: round(pct(lat, 99)), max: round(Math.max(...lat)) },
    creates: { sent, acknowledged, acknowledgedFound, inDatabase: found.size },
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
}

await main();
