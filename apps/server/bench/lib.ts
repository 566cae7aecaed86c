import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { buildServerBundle } from '../../../scripts/build-server.mjs';

export const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
export const md5 = (s: string) => createHash('md5').update(s).digest('hex');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The product's servers among the scripts the benches start, and the bare Fastify yardsticks timed beside them. */
const SERVER_SCRIPTS = new Set(['src/main.ts', 'test/captcha-file-server.ts', 'bench/bare-list.ts', 'bench/bare.ts']);

/**
 * Node's arguments for a script of `cwd` (a server directory): a server script runs as the production build compiles
 * it (bench/built.mjs), so a bench times the code `npm start` runs; the others run through tsx. `BENCH_TSX=1` runs
 * every script through tsx (CPU profiles then name source lines), and so does a server directory without
 * bench/built.mjs (a worktree of an older commit in bench/ab.ts).
 */
export function scriptArgs(script: string, cwd: string): string[] {
  const built =
    SERVER_SCRIPTS.has(script) && process.env.BENCH_TSX !== '1' && fs.existsSync(path.join(cwd, 'bench/built.mjs'));
  return built ? ['bench/built.mjs', script] : ['--import', 'tsx', script];
}

/**
 * A server script built once as bench/built.mjs builds it, for a bench that times the start itself (spawn → first
 * answer), so the build is not part of what it times: node's arguments for the built entry, and its removal.
 */
export async function prebuilt(script: string, serverDir: string): Promise<{ args: string[]; remove: () => void }> {
  if (process.env.BENCH_TSX === '1') return { args: ['--import', 'tsx', script], remove: () => {} };
  const name = path.basename(script, '.ts');
  const outDir = path.join(serverDir, '.bench-build', `${name}-${process.pid}`);
  await buildServerBundle({ serverDir, outDir, entries: [{ in: script, out: name }] });
  return { args: [path.join(outDir, `${name}.js`)], remove: () => fs.rmSync(outDir, { recursive: true, force: true }) };
}

export function spawnNode(args: string[], env: Record<string, string>, cwd: string): ChildProcess {
  return spawn(process.execPath, [...scriptArgs(args[0], cwd), ...args.slice(1)], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      /* not up yet */
    }
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${url}`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([done, sleep(5000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export type Load = { rps: number; p50: number; p99: number; errors: number; non2xx: number };

export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections = 50,
): Promise<Load> {
  const r = await autocannon({ url, headers, duration: seconds, connections, pipelining: 1 });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

/** Logs in the way the console does: captcha (its code read from the harness file), then the token call. */
export async function captchaLogin(
  base: string,
  captchaFile: string,
  account = 'admin',
  password = 'admin',
  tenantId = '000000',
): Promise<string> {
  const c = (await (await fetch(`${base}/api/blade-auth/oauth/captcha`)).json()) as { key: string };
  let code = '';
  for (let i = 0; i < 100 && !code; i++) {
    const line = fs
      .readFileSync(captchaFile, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(c.key));
    code = line?.split(' ')[1] ?? '';
    if (!code) await sleep(20);
  }
  const q = new URLSearchParams({
    tenantId,
    username: account,
    password: md5(password),
    grant_type: 'captcha',
    scope: 'all',
    type: 'account',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${q}`, {
    method: 'POST',
    headers: { authorization: BASIC, 'tenant-id': tenantId, 'captcha-key': c.key, 'captcha-code': code },
  });
  const body = (await res.json()) as { access_token?: string; error_description?: string };
  if (!body.access_token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** Drops a bench's throwaway database unless `keepVar` is '1' in the environment (then says so). */
export async function dropBenchDb(admin: pg.Client, dbName: string, keepVar: string): Promise<void> {
  if (process.env[keepVar] === '1') {
    console.log(`kept database ${dbName} (${keepVar}=1): drop it by hand`);
    return;
  }
  await admin
    .query(`drop database if exists ${dbName} with (force)`)
    .catch((e: Error) => console.error(`could not drop ${dbName}: ${e.message}`));
}

/** Runs a bench section when its file is the script node was started with, printing its figures. */
export function runIfMain(url: string, bench: (serverDir: string) => Promise<unknown>): void {
  if (!process.argv[1] || url !== pathToFileURL(path.resolve(process.argv[1])).href) return;
  const serverDir = path.resolve(path.dirname(fileURLToPath(url)), '..');
  bench(serverDir).then(
    (r) => {
      console.log(JSON.stringify(r, null, 2));
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

// ——— The page benches on a throwaway PostgreSQL database (bench/users.ts, bench/clients.ts) ———

export type Stat = { p50: number; p99: number; n: number };
export const round = (x: number) => Math.round(x * 100) / 100;
/** Nearest-rank percentile. */
export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
export const stat = (xs: number[]): Stat => ({ p50: round(pct(xs, 50)), p99: round(pct(xs, 99)), n: xs.length });

/** n timed calls after `warm` untimed ones; stops early once `budgetMs` is spent, so a slow plan cannot stall the run. */
export async function timed(n: number, warm: number, fn: () => Promise<void>, budgetMs: number): Promise<number[]> {
  const until = performance.now() + budgetMs;
  for (let i = 0; i < warm && performance.now() < until; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n && (out.length < 10 || performance.now() < until); i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** Resident and peak resident memory of a process (MB), from /proc; empty where there is none. */
export function rssOf(pid: number | undefined): { rss?: number; hwm?: number } {
  if (!pid) return {};
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
    return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return {};
  }
}

/** A port nothing listens on now (a fixed one may be taken by someone's dev server). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net
      .createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
  });
}

function drain(child: ChildProcess) {
  let tail = '';
  const keep = (b: Buffer) => {
    tail = (tail + b.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail;
}

/**
 * A throwaway database on the machine's PostgreSQL (`BENCH_PG_URL`) with a data dir and a port for its server
 * (`portVar` names a fixed one, else a free one). `close()` drops both unless `keepVar` is '1'.
 */
export type BenchDb = {
  admin: pg.Client;
  dbName: string;
  dbUrl: string;
  dir: string;
  base: string;
  /** The server's environment: port, database, data dir, quiet logs. */
  env: Record<string, string>;
  portVar: string;
  /** Spawns `script` (src/main.ts: migrate + seed; test/captcha-file-server.ts: captchas to a file) on the database. */
  start(script: string, serverDir: string, extra?: Record<string, string>): Promise<ChildProcess>;
  close(): Promise<void>;
};

export async function throwawayDb(tag: string, portVar: string, keepVar: string): Promise<BenchDb> {
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `atrium_bench_${randomBytes(4).toString('hex')}`;
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const port = Number(process.env[portVar] ?? (await freePort()));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `atrium-bench-${tag}-`));
  const base = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), DATABASE_URL: dbUrl.toString(), LOG_LEVEL: 'warn', ATRIUM_DATA_DIR: dir };
  return {
    admin,
    dbName,
    dbUrl: dbUrl.toString(),
    dir,
    base,
    env,
    portVar,
    // Refuses a port something else already answers on.
    async start(script, serverDir, extra = {}) {
      if (
        await fetch(base).then(
          () => true,
          () => false,
        )
      )
        throw new Error(`${base} already answers: set ${portVar} to a free port`);
      const child = spawnNode([script], { ...env, ...extra }, serverDir);
      const tail = drain(child);
      await waitFor(`${base}/api/blade-system/tenant/info?domain=x`, 120_000).catch(async (e: Error) => {
        await stop(child);
        throw new Error(`${e.message}\n${tail()}`);
      });
      return child;
    },
    async close() {
      // Give pool connections a moment to close; WITH (FORCE) ends any that linger.
      await sleep(100);
      await dropBenchDb(admin, dbName, keepVar);
      await admin.end();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type SqlQuery = { text: string; values: unknown[] };

/** Indexes of a table as `name (columns…) [WHERE …]`: the schema under test. */
export async function indexesOf(c: pg.Client, table: string): Promise<string[]> {
  const rows = (
    await c.query<{ indexdef: string }>(`select indexdef from pg_indexes where tablename = $1 order by indexname`, [
      table,
    ])
  ).rows;
  return rows.map((r) => r.indexdef.replace(/^CREATE (UNIQUE )?INDEX (\S+) ON public\.(\S+) USING btree /, '$2 $1'));
}

/**
 * Prints EXPLAIN (ANALYZE, BUFFERS) of each query (BENCH_EXPLAIN=1): directly, and with `rlsTenant` also as the server
 * runs it — as atrium_app with app.tenant_id set, in a transaction rolled back — where row-level security keeps a
 * condition that is not leakproof (`like`, `lower()`) out of the index condition.
 */
export async function printPlans(c: pg.Client, queries: SqlQuery[], rlsTenant?: string): Promise<void> {
  const print = async (q: SqlQuery, rls: boolean) => {
    const plan = await c.query({ text: `explain (analyze, buffers) ${q.text}`, values: q.values });
    const head = `${rls ? '[under RLS] ' : ''}${q.text} ${JSON.stringify(q.values)}`;
    console.log(`\n${head}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  };
  for (const q of queries) {
    await print(q, false);
    if (rlsTenant) await asTenant(c, rlsTenant, () => print(q, true), 'rollback');
  }
}

/**
 * Runs `fn` as the server runs its queries (withTenant()): in a transaction as atrium_app with app.tenant_id set,
 * so row-level security applies; ends with `end` (a failure rolls back).
 */
export async function asTenant(
  c: pg.Client,
  tenantId: string,
  fn: () => Promise<unknown>,
  end: 'commit' | 'rollback' = 'commit',
): Promise<void> {
  await c.query('begin');
  try {
    await c.query(`select set_config('app.tenant_id', $1, true), set_config('role', 'atrium_app', true)`, [tenantId]);
    await fn();
  } catch (e) {
    await c.query('rollback');
    throw e;
  }
  await c.query(end);
}

/** The scan and sort nodes PostgreSQL chose for a query, on one line. */
export async function scanNodes(c: pg.Client, q: SqlQuery): Promise<string> {
  return (await c.query({ text: `explain ${q.text}`, values: q.values })).rows
    .map((r) => String(r['QUERY PLAN']))
    .filter((l) => /Scan|Sort /.test(l))
    .map((l) => l.replace(/^[\s->]+/, '').replace(/\s+\(cost=.*$/, ''))
    .join(' ← ');
}

export type PageCase = {
  label: string;
  query: Record<string, string>;
  endpoint?: Stat;
  raw: Stat;
  rawRls: Stat;
  total: number;
  /** endpoint ÷ raw SQL (p50 and p99), and endpoint ÷ the same SQL under RLS in a transaction (p50). */
  ratio?: { p50: number; p99: number; p50ToRls: number };
  /** The scan nodes PostgreSQL chose for the count and the page query. */
  countPlan: string;
  pagePlan: string;
};

/**
 * One page case: the endpoint (its total and ids checked against the SQL's first), then the count + page it needs
 * run directly (superuser, no RLS), then the same inside a transaction as atrium_app with app.tenant_id set (what
 * withTenant() does), to see what RLS + the transaction cost. `endpointState` other than 'ok' (an earlier case's
 * failure) skips the endpoint; the answer carries the state for the next case.
 */
export async function timePageCase(o: {
  c: pg.Client;
  url: string;
  headers: Record<string, string>;
  label: string;
  query: Record<string, string>;
  count: SqlQuery;
  page: SqlQuery;
  tenantId: string;
  n: number;
  warm: number;
  budgetMs: number;
  endpointState: string;
  /** What the log lines start with, e.g. 'user page'. */
  name: string;
  log: (label: string, v: unknown) => void;
}): Promise<{ result: PageCase; endpointState: string }> {
  const { c, n, warm, budgetMs, label, log } = o;
  const count = Number((await c.query<{ count: string }>(o.count)).rows[0].count);
  const pageIds = (await c.query<{ id: string }>(o.page)).rows.map((r) => String(r.id));
  const countPlan = await scanNodes(c, o.count);
  const pagePlan = await scanNodes(c, o.page);

  let endpointState = o.endpointState;
  let endpoint: Stat | undefined;
  if (endpointState === 'ok') {
    const probe = await fetch(o.url, { headers: o.headers });
    if (probe.status !== 200) {
      endpointState = `answered ${probe.status}: ${(await probe.text()).slice(0, 200)}`;
    } else {
      const body = (await probe.json()) as { data?: { total?: number | string; records?: { id: string }[] } };
      const gotIds = (body.data?.records ?? []).map((r) => String(r.id));
      if (Number(body.data?.total) !== count || gotIds.join() !== pageIds.join()) {
        console.warn(
          `${o.name} ${label}: endpoint total ${body.data?.total} ids ${gotIds.slice(0, 3)}… vs SQL total ${count} ids ${pageIds.slice(0, 3)}…`,
        );
      }
      endpoint = stat(
        await timed(
          n,
          warm,
          async () => {
            const r = await fetch(o.url, { headers: o.headers });
            if (r.status !== 200) throw new Error(`${o.url} answered ${r.status}`);
            await r.arrayBuffer();
          },
          budgetMs,
        ),
      );
    }
  }
  const raw = stat(
    await timed(
      n,
      warm,
      async () => {
        await c.query(o.count);
        await c.query(o.page);
      },
      budgetMs,
    ),
  );
  const rawRls = stat(
    await timed(
      n,
      warm,
      () =>
        asTenant(c, o.tenantId, async () => {
          await c.query(o.count);
          await c.query(o.page);
        }),
      budgetMs,
    ),
  );
  const ratio = endpoint
    ? {
        p50: round(endpoint.p50 / raw.p50),
        p99: round(endpoint.p99 / raw.p99),
        p50ToRls: round(endpoint.p50 / rawRls.p50),
      }
    : undefined;
  log(`${o.name} ${label} (total ${count}) ms`, { endpoint: endpoint ?? endpointState, raw, rawRls });
  if (ratio) log('  endpoint / raw', ratio);
  log('  plans (count | page)', `${countPlan} | ${pagePlan}`);
  return {
    result: { label, query: o.query, endpoint, raw, rawRls, ratio, total: count, countPlan, pagePlan },
    endpointState,
  };
}

/** How every bench prints one figure: a padded label, then the value (objects as JSON). */
export type Log = (label: string, v: unknown) => void;
export const printFigure: Log = (label, v) =>
  console.log(`${label.padEnd(48)} ${typeof v === 'object' ? JSON.stringify(v) : v}`);

/** The request count, warm-up and time budget of a timed bench, from BENCH_<NAME>_REQUESTS / _WARMUP / _BUDGET_MS. */
export function timingKnobs(
  name: string,
  defaults: { warm?: number } = {},
): { n: number; warm: number; budgetMs: number } {
  const env = (k: string, d: number) => Number(process.env[`BENCH_${name}_${k}`] ?? d);
  return { n: env('REQUESTS', 200), warm: env('WARMUP', defaults.warm ?? 20), budgetMs: env('BUDGET_MS', 15_000) };
}

/**
 * A keep-alive HTTP/1.1 GET (node:http, one socket), the body read whole, compressed answers accepted like a
 * browser's: the time a native HTTP stack sees. Node's `fetch` (undici) spends ≈ 0.3–0.8 ms of its own JavaScript per
 * request on this machine, which a browser does not; the benches report both (docs/clients.md "Bench").
 */
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
export function keepAliveGet(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { agent: keepAlive, headers: { 'accept-encoding': 'br, gzip', ...headers } },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Fills the console's login form as a person would (account, password, the captcha's code) and submits it; the
 * home page is reached when it resolves. Used by the benches that drive Chromium (bundles.ts, video-browser.ts).
 */
export async function fillLoginForm(page: Page, account: string, password: string, captcha: string) {
  await page
    .getByPlaceholder(/用户名|账号|user name|account/i)
    .first()
    .fill(account);
  await page
    .getByPlaceholder(/^(请输入)?密码|password/i)
    .first()
    .fill(password);
  await page
    .getByPlaceholder(/验证码|captcha/i)
    .first()
    .fill(captcha);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/wel\/index/, { timeout: 30_000 });
}

/** A process's CPU time so far (user + system, ms) from /proc; undefined where there is none. */
export function cpuMs(pid: number | undefined): number | undefined {
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
