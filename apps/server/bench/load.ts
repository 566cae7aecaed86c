// Under load (docs/server.md "Under load"): the real server on PostgreSQL (a throwaway database at BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; skipped with a message when none answers) or, with
// BENCH_LOAD_DB=pglite, on the embedded database in a throwaway data dir; 200 autocannon connections for
// BENCH_LOAD_SECONDS (default 60) as the platform administrator: ten reads (the client page among them), one login
// and one user created, round and round. Beside it, each in a process of its own, an unrelated public GET and the
// static /login page, each ten times a second, timed. Reports the answers by status, timeouts (BENCH_LOAD_TIMEOUT s,
// default 30), the requests answered after more than 15 s, the client page's p50/p99, p50/p99 of both probes, the
// server's RSS, and the users created as acknowledged against those found in the database afterwards. Aim: no
// timeouts, nothing over 15 s, unrelated GET p99 <= 100 ms, acknowledged == found.
// Alone: `cd apps/server && npx tsx bench/load.ts`, or `BENCH_ONLY=load npm run bench` at the root.
// Knobs: BENCH_LOAD_DB (postgres | pglite), BENCH_LOAD_SECONDS, BENCH_LOAD_CONNECTIONS (200), BENCH_LOAD_PORT (8098),
// BENCH_LOAD_TIMEOUT (30), BENCH_LOAD_KEEP_DB=1. The /login probe is served from ATRIUM_WEB_DIST when it is set, else
// from a one-page stand-in written for the run (the same static route and SPA fallback, no web build needed).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import autocannon from 'autocannon';
import pg from 'pg';
import { BASIC, dropBenchDb, runIfMain, md5, sleep, spawnNode, stop, waitFor, printFigure, type Log } from './lib.ts';

type ProbeStat = {
  n: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
  /** The failures by status, or 'timeout' / 'error'. */
  failures: Record<string, number>;
};

export type LoadResult =
  | { skipped: string }
  | {
      database: 'postgres' | 'pglite';
      seconds: number;
      connections: number;
      requests: number;
      rps: number;
      byStatus: Record<string, number>;
      timeouts: number;
      errors: number;
      latency: { p50: number; p99: number; max: number };
      /** Answers that took more than 15 s (timeouts not included). */
      over15s: number;
      /** The client page's answers (ms). */
      clientPage: { n: number; p50: number; p99: number; max: number };
      probe: ProbeStat;
      /** The static /login page, timed like the unrelated GET. */
      loginProbe: ProbeStat;
      /** The same GET for 5 s before the load: what this machine answers when the server is idle. */
      probeIdle: ProbeStat;
      serverRssMb?: number;
      serverPeakRssMb?: number;
      /** os.loadavg() of the last minute at the end: other work on the machine shares its cores. */
      loadAverage: number;
      creates: {
        sent: number;
        acknowledged: number;
        refused: Record<string, number>;
        unanswered: number;
        inDatabase: number;
        acknowledgedInDatabase: number;
        refusedInDatabase: number;
        /** acknowledged == found among the answered ones, and nothing refused was written */
        consistent: boolean;
      };
      aim: { noTimeouts: boolean; noneOver15s: boolean; probeP99Within100ms: boolean; consistent: boolean };
    };

const CLIENT_PAGE = '/api/blade-business/clientInfo/page?current=1&size=10';
const READS = [
  '/api/blade-user/page?current=1&size=10',
  '/api/blade-system/menu/routes',
  '/api/blade-user/info',
  '/api/blade-system/menu/buttons',
  '/api/blade-system/dept/tree',
  '/api/blade-user/page?current=2&size=10&realName=load',
  '/api/blade-system/menu/routes',
  '/api/blade-user/info',
  '/api/blade-system/dept/tree',
  CLIENT_PAGE,
];
const PROBE_PATH = '/api/blade-system/tenant/info?domain=probe.invalid';

const round = (x: number) => Math.round(x * 10) / 10;
const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

function rssOf(pid: number | undefined) {
  if (!pid) return {};
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
    return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return {};
  }
}

/**
 * The unrelated GET, in a process of its own — as an unrelated client is — warmed up before it is timed. (A worker thread beside autocannon saw
 * stalls of up to a second that neither the server nor a separate client saw: the load generator's process is not a
 * neutral observer.) One request every `everyMs`, each timed from send to the last byte (30 s timeout), until told
 * to stop on its stdin; it answers with its times as JSON on stdout.
 */
async function startProbe(url: string, everyMs: number) {
  const code = `
    const times = []; let failed = 0; const failures = {}; const pending = new Set();
    const fail = (why) => { failed++; failures[why] = (failures[why] ?? 0) + 1; };
    const one = async () => {
      const t0 = performance.now();
      try {
        const r = await fetch(${JSON.stringify(url)}, { signal: AbortSignal.timeout(30000) });
        await r.arrayBuffer();
        if (r.status !== 200) fail(String(r.status)); else times.push(performance.now() - t0);
      } catch (e) { fail(e.name === 'TimeoutError' ? 'timeout' : 'error'); }
    };
    (async () => {
      // Untimed warm-up: a new process loads and compiles its HTTP client on the first calls.
      for (let i = 0; i < 20; i++) await fetch(${JSON.stringify(url)}).then((r) => r.arrayBuffer(), () => {});
      const timer = setInterval(() => { const p = one(); pending.add(p); p.finally(() => pending.delete(p)); }, ${everyMs});
      process.stdout.write('ready\\n');
      process.stdin.once('data', async () => {
        clearInterval(timer);
        await Promise.all(pending);
        process.stdout.write(JSON.stringify({ times, failed, failures }), () => process.exit(0));
      });
    })();`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let onReady = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString();
    if (out.startsWith('ready\n')) {
      out = out.slice('ready\n'.length);
      onReady();
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await ready;
  return async (): Promise<{ times: number[]; failed: number; failures: Record<string, number> }> => {
    child.stdin.write('stop\n');
    await exited;
    return JSON.parse(out) as { times: number[]; failed: number; failures: Record<string, number> };
  };
}

async function pgAnswers(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await c.end().catch(() => {});
  }
}

export async function benchLoad(serverDir: string, log: Log = printFigure): Promise<LoadResult> {
  const database = process.env.BENCH_LOAD_DB === 'pglite' ? 'pglite' : 'postgres';
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const problem = database === 'postgres' ? await pgAnswers(adminUrl) : null;
  if (problem) {
    const skipped = `no PostgreSQL at ${adminUrl} (${problem}): load bench skipped`;
    console.log(skipped);
    return { skipped };
  }
  const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
  const connections = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200);
  const port = Number(process.env.BENCH_LOAD_PORT ?? 8098);
  const timeout = Number(process.env.BENCH_LOAD_TIMEOUT ?? 30);
  const base = `http://127.0.0.1:${port}`;
  const dbName = `atrium_load_${randomBytes(4).toString('hex')}`;
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const admin = database === 'postgres' ? new pg.Client({ connectionString: adminUrl }) : undefined;
  await admin?.connect();
  await admin?.query(`create database ${dbName}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-load-'));
  let webDist = process.env.ATRIUM_WEB_DIST;
  if (!webDist) {
    webDist = path.join(dir, 'web');
    fs.mkdirSync(webDist);
    fs.writeFileSync(
      path.join(webDist, 'index.html'),
      `<!doctype html><html><head><meta charset="utf-8"><title>Atrium</title></head><body><div id="root"></div>${'<!-- stand-in for the built console -->'.repeat(40)}</body></html>`,
    );
  }
  let server: ReturnType<typeof spawnNode> | undefined;
  let tail = '';
  try {
    if (
      await fetch(base).then(
        () => true,
        () => false,
      )
    )
      throw new Error(`${base} already answers: set BENCH_LOAD_PORT to a free port`);
    server = spawnNode(
      ['src/main.ts'],
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        ...(database === 'postgres' ? { DATABASE_URL: dbUrl.toString() } : {}),
        ATRIUM_DATA_DIR: dir,
        ATRIUM_WEB_DIST: webDist,
        ATRIUM_CAPTCHA: 'off',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'development',
      },
      serverDir,
    );
    const keep = (b: Buffer) => (tail = (tail + b.toString()).slice(-4000));
    server.stdout?.on('data', keep);
    server.stderr?.on('data', keep);
    // A fresh data dir is initialised, migrated and seeded first: minutes on a loaded machine.
    await waitFor(`${base}${PROBE_PATH}`, 300_000);

    // The platform administrator, through the password grant (ATRIUM_CAPTCHA=off).
    const q = new URLSearchParams({
      tenantId: '000000',
      username: 'admin',
      password: md5('admin'),
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
    for (const p of new Set(READS)) {
      const r = await fetch(`${base}${p}`, { headers });
      if (r.status !== 200) throw new Error(`${p} answered ${r.status}: ${(await r.text()).slice(0, 200)}`);
    }

    // Each create names its account; a connection has one request in flight, so its context knows whose answer comes.
    const run = randomBytes(3).toString('hex');
    let sent = 0;
    const answered = new Map<string, number>();
    type Ctx = { account?: string };
    const create = {
      method: 'POST' as const,
      path: '/api/blade-user/submit',
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (req: autocannon.Request, context: Ctx) => {
        const account = `load_${run}_${++sent}`;
        context.account = account;
        return { ...req, body: JSON.stringify({ account, realName: 'load', password: 'Load#2026bench' }) };
      },
      onResponse: (status: number, _body: string, context: Ctx) => {
        if (context.account) answered.set(context.account, status);
        context.account = undefined;
      },
    };
    // Every answer timed from its request's setup (a connection sends its next request as it builds it) to its
    // answer, by path.
    const times = new Map<string, number[]>();
    type Timed = Ctx & { t0?: number };
    const timed = <R extends { path: string }>(
      r: R & {
        setupRequest?: (req: autocannon.Request, context: Timed) => autocannon.Request;
        onResponse?: (status: number, body: string, context: Timed) => void;
      },
    ) => ({
      ...r,
      setupRequest: (req: autocannon.Request, context: Timed) => {
        context.t0 = performance.now();
        return r.setupRequest ? r.setupRequest(req, context) : req;
      },
      onResponse: (status: number, body: string, context: Timed) => {
        if (context.t0 !== undefined) {
          const list = times.get(r.path) ?? [];
          list.push(performance.now() - context.t0);
          times.set(r.path, list);
        }
        r.onResponse?.(status, body, context);
      },
    });
    const login = {
      method: 'POST' as const,
      path: `/api/blade-auth/oauth/token?${q}`,
      headers: { authorization: BASIC, 'tenant-id': '000000' },
    };
    const requests = [...READS.map((p) => ({ method: 'GET' as const, path: p, headers })), login, create].map((r) =>
      timed(r as Parameters<typeof timed>[0]),
    );

    const probeStat = (p: { times: number[]; failed: number; failures: Record<string, number> }): ProbeStat => ({
      n: p.times.length,
      p50: round(pct(p.times, 50)),
      p99: round(pct(p.times, 99)),
      max: round(Math.max(...p.times)),
      failed: p.failed,
      failures: p.failures,
    });
    const stopIdleProbe = await startProbe(`${base}${PROBE_PATH}`, 100);
    await sleep(5000);
    const probeIdle = probeStat(await stopIdleProbe());

    const stopProbe = await startProbe(`${base}${PROBE_PATH}`, 100);
    const stopLoginProbe = await startProbe(`${base}/login`, 100);
    const r = await autocannon({ url: base, connections, duration: seconds, pipelining: 1, timeout, requests });
    const probe = await stopProbe();
    const loginProbe = await stopLoginProbe();
    const mem = rssOf(server.pid);
    // Requests the server was still working on when autocannon stopped finish now.
    await sleep(3000);

    const accounts = `select account from "user" where account like $1`;
    let found: Set<string>;
    if (database === 'postgres') {
      const c = new pg.Client({ connectionString: dbUrl.toString() });
      await c.connect();
      found = new Set((await c.query<{ account: string }>(accounts, [`load_${run}_%`])).rows.map((x) => x.account));
      await c.end();
    } else {
      // The data dir is the server's until it stops.
      await stop(server);
      const c = new PGlite(path.join(dir, 'pg'));
      found = new Set((await c.query<{ account: string }>(accounts, [`load_${run}_%`])).rows.map((x) => x.account));
      await c.close();
    }
    let acknowledged = 0;
    let acknowledgedInDatabase = 0;
    let refusedInDatabase = 0;
    const refused: Record<string, number> = {};
    for (const [account, status] of answered) {
      if (status === 200) {
        acknowledged++;
        if (found.has(account)) acknowledgedInDatabase++;
      } else {
        refused[status] = (refused[status] ?? 0) + 1;
        if (found.has(account)) refusedInDatabase++;
      }
    }
    // @types/autocannon has statusCodeStats and its counts optional; autocannon always fills them.
    const byStatus = Object.fromEntries(
      Object.entries(r.statusCodeStats as unknown as Record<string, { count: number }>).map(([k, v]) => [k, v.count]),
    );
    const probeLoaded = probeStat(probe);
    const loginLoaded = probeStat(loginProbe);
    const all = [...times.values()].flat();
    const over15s = all.filter((t) => t > 15_000).length;
    const page = times.get(CLIENT_PAGE) ?? [];
    const clientPage = {
      n: page.length,
      p50: round(pct(page, 50)),
      p99: round(pct(page, 99)),
      max: round(Math.max(...page)),
    };
    const consistent = acknowledged === acknowledgedInDatabase && refusedInDatabase === 0;
    const result: LoadResult = {
      database,
      seconds,
      connections,
      requests: r.requests.total,
      rps: Math.round(r.requests.average),
      byStatus,
      timeouts: r.timeouts,
      errors: r.errors,
      latency: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max },
      over15s,
      clientPage,
      probe: probeLoaded,
      loginProbe: loginLoaded,
      probeIdle,
      serverRssMb: mem.rss,
      serverPeakRssMb: mem.hwm,
      loadAverage: round(os.loadavg()[0]),
      creates: {
        sent,
        acknowledged,
        refused,
        unanswered: sent - answered.size,
        inDatabase: found.size,
        acknowledgedInDatabase,
        refusedInDatabase,
        consistent,
      },
      aim: {
        noTimeouts: r.timeouts === 0,
        noneOver15s: over15s === 0,
        probeP99Within100ms: probeLoaded.p99 <= 100,
        consistent,
      },
    };
    log(
      `load (${database}): ${connections} connections, ${seconds} s: requests / req/s`,
      `${r.requests.total} / ${result.rps}`,
    );
    log('load: answers by status', byStatus);
    log(`load: timeouts (${timeout} s) / errors`, `${r.timeouts} / ${r.errors}`);
    log('load: answers over 15 s', over15s);
    log('load: latency of the mix p50 / p99 / max (ms)', `${r.latency.p50} / ${r.latency.p99} / ${r.latency.max}`);
    log('load: client page ms', clientPage);
    log('load: unrelated GET (10/s) ms, server idle', probeIdle);
    log('load: unrelated GET (10/s) ms, under the load', probeLoaded);
    log('load: static /login (10/s) ms, under the load', loginLoaded);
    log('load: machine load average (1 min) at the end', result.loadAverage);
    log('load: server RSS / peak RSS (MB)', `${mem.rss} / ${mem.hwm}`);
    log('load: user creates', result.creates);
    log('load: aim (no timeouts, none over 15 s, probe p99 <= 100 ms, consistent)', result.aim);
    if (process.env.BENCH_LOAD_TAIL === '1') console.log(`server output (tail):\n${tail}`);
    return result;
  } catch (err) {
    if (tail) console.error(`server output (tail):\n${tail}`);
    throw err;
  } finally {
    if (server) await stop(server);
    await sleep(100);
    if (admin) {
      await dropBenchDb(admin, dbName, 'BENCH_LOAD_KEEP_DB');
      await admin.end();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, benchLoad);
