// What the live-state check costs (docs/server.md "Live state and cache epochs"): GET /api/blade-system/menu/routes
// (a cached answer of ≈ 12.8 kB) for a logged-in admin, against a bare Fastify route sending the same payload
// (bench/bare.ts `/bare-big`) in the same run. With BENCH_BASE (the server directory of another build, e.g. a
// `git worktree` of the commit before a change with node_modules symlinked, as bench/ab.ts does) that build is timed
// too, each on its own data: bare, A and B take turns (A and B in alternating order) for BENCH_ROUNDS rounds (3), so
// a change of the shared machine's speed meets them alike, and the medians and ratios are reported. Each turn: a
// fresh server process, 2 s of warm-up, one request at a time (p50/p99 over BENCH_REVOCATION_REQUESTS, 500), then
// autocannon with 50 connections for BENCH_SECONDS (10) (req/s, p50/p99). On PGlite always; on PostgreSQL when one
// answers at BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) in throwaway databases.
// Alone: `cd apps/server && [BENCH_BASE=/tmp/base/apps/server] npx tsx bench/revocation.ts`, or
// `BENCH_ONLY=revocation npm run bench` at the root. BENCH_REVOCATION_PORT (8094) is the port of the servers timed.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { BASIC, load, md5, spawnNode, stop, waitFor, type Load } from './lib.ts';

const PORT = Number(process.env.BENCH_REVOCATION_PORT ?? 8094);
const ROUTES = `http://127.0.0.1:${PORT}/api/blade-system/menu/routes`;

type Stat = { p50: number; p99: number; n: number };
type Who = 'bare' | 'A' | 'B';
type Run = { who: Who; sequential: Stat; concurrent: Load };
type Summary = Partial<Record<Who, { rps: number; p50: number; p99: number; sequentialP50: number; toBare?: number }>>;
export type RevocationResult = {
  pglite: Run[] | { error: string };
  postgres: Run[] | { error: string };
  summary: Record<string, Summary & { bOverA?: number }>;
};

const round = (x: number) => Math.round(x * 1000) / 1000;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const median = (xs: number[]) => pct(xs, 50);

/** The server of one turn, from the server directory `dir`: migrate and seed when empty, then listen. */
async function serve(dir: string, dataDir: string) {
  const from = async (file: string) => import(pathToFileURL(path.join(dir, file)).href);
  const { loadConfig } = await from('src/config.ts');
  const { openDatabase } = await from('src/db/client.ts');
  // The seed moved above the modules (src/seed/) in issue 25; a base build may have it in db/.
  const { seedIfEmpty } = await from(
    fs.existsSync(path.join(dir, 'src/seed/seed.ts')) ? 'src/seed/seed.ts' : 'src/db/seed.ts',
  );
  const { resolveSigningKey } = await from('src/db/signing-key.ts');
  const { buildApp } = await from('src/app.ts');
  const config = loadConfig({ ...process.env, ATRIUM_DATA_DIR: dataDir, ATRIUM_CAPTCHA: 'off', LOG_LEVEL: 'warn' });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir });
  await database.migrate();
  await seedIfEmpty(database.db, { adminPassword: 'admin' });
  const { key } = await resolveSigningKey(config, database);
  const { app } = await buildApp({ config, db: database.db, signingKey: key });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const bye = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void bye());
}

async function token(): Promise<string> {
  const q = new URLSearchParams({
    tenantId: '000000',
    username: 'admin',
    password: md5('admin'),
    grant_type: 'password',
  });
  const res = await fetch(`http://127.0.0.1:${PORT}/api/blade-auth/oauth/token?${q}`, {
    method: 'POST',
    headers: { authorization: BASIC, 'tenant-id': '000000' },
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** One turn: a server (or the bare route) started, warmed, timed one request at a time, then with 50 connections. */
async function measure(
  who: Who,
  target: { serverDir: string; dataDir: string; env: Record<string, string> },
  benchDir: string,
  seconds: number,
): Promise<Run> {
  const bare = who === 'bare';
  const child = bare
    ? spawnNode(['bench/bare.ts'], { PORT: String(PORT) }, benchDir)
    : spawnNode(['bench/revocation.ts', '--serve', target.serverDir, target.dataDir], target.env, benchDir);
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += String(d)));
  try {
    const url = bare ? `http://127.0.0.1:${PORT}/bare-big` : ROUTES;
    await waitFor(bare ? url : `http://127.0.0.1:${PORT}/api/blade-system/tenant/info?domain=x`, 180_000).catch(
      (err) => {
        throw new Error(`${err.message}\n${stderr}`);
      },
    );
    const headers: Record<string, string> = bare
      ? {}
      : { authorization: BASIC, 'blade-auth': `bearer ${await token()}` };
    const check = await fetch(url, { headers });
    if (check.status !== 200) throw new Error(`${url} answered ${check.status}`);
    await load(url, headers, 2);
    const times: number[] = [];
    const n = Number(process.env.BENCH_REVOCATION_REQUESTS ?? 500);
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await fetch(url, { headers });
      await r.arrayBuffer();
      times.push(performance.now() - t0);
    }
    const sequential = { p50: round(pct(times, 50)), p99: round(pct(times, 99)), n };
    const concurrent = await load(url, headers, seconds);
    return { who, sequential, concurrent };
  } finally {
    await stop(child);
  }
}

/** Rounds of bare, A and B in turn, each build on its own data (the first turn migrates and seeds it). */
async function series(
  envs: Partial<Record<Who, Record<string, string>>>,
  dirs: Partial<Record<Who, string>>,
  benchDir: string,
  seconds: number,
): Promise<Run[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-rev-'));
  try {
    const runs: Run[] = [];
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    for (let i = 0; i < rounds; i++) {
      const builds: Who[] = dirs.A ? (i % 2 ? ['B', 'A'] : ['A', 'B']) : ['B'];
      for (const who of ['bare', ...builds] as Who[]) {
        const dataDir = path.join(tmp, who);
        fs.mkdirSync(dataDir, { recursive: true });
        const target = { serverDir: dirs[who] ?? benchDir, dataDir, env: envs[who] ?? {} };
        runs.push(await measure(who, target, benchDir, seconds));
      }
    }
    return runs;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function summarize(runs: Run[]): Summary & { bOverA?: number } {
  const out: Summary & { bOverA?: number } = {};
  for (const who of ['bare', 'A', 'B'] as Who[]) {
    const rs = runs.filter((r) => r.who === who);
    if (!rs.length) continue;
    out[who] = {
      rps: Math.round(median(rs.map((r) => r.concurrent.rps))),
      p50: median(rs.map((r) => r.concurrent.p50)),
      p99: median(rs.map((r) => r.concurrent.p99)),
      sequentialP50: round(median(rs.map((r) => r.sequential.p50))),
    };
  }
  for (const who of ['A', 'B'] as Who[])
    if (out[who] && out.bare) out[who].toBare = Math.round((out[who].rps / out.bare.rps) * 1000) / 10;
  if (out.A && out.B) out.bOverA = Math.round((out.B.rps / out.A.rps) * 100) / 100;
  return out;
}

export async function benchRevocation(
  serverDir: string,
  print: (label: string, v: unknown) => void,
  seconds = Number(process.env.BENCH_SECONDS ?? 10),
): Promise<RevocationResult> {
  const result: RevocationResult = { pglite: { error: 'not run' }, postgres: { error: 'not run' }, summary: {} };
  const base = process.env.BENCH_BASE ? path.resolve(process.env.BENCH_BASE) : undefined;
  const dirs = { B: serverDir, ...(base ? { A: base } : {}) };
  const plain = { DATABASE_URL: '', ATRIUM_JWT_SECRET: '' };
  try {
    result.pglite = await series({ A: plain, B: plain }, dirs, serverDir, seconds);
    result.summary.pglite = summarize(result.pglite);
    print('routes against the same-payload bare route, PGlite', result.summary.pglite);
  } catch (err) {
    result.pglite = { error: (err as Error).message };
    print('routes against the same-payload bare route, PGlite', result.pglite);
  }

  const admin = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const names = { A: `atrium_bench_rev_${randomBytes(4).toString('hex')}`, B: '' };
  names.B = `${names.A}_b`;
  const q = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const urlOf = (name: string) => {
    const u = new URL(admin);
    u.pathname = `/${name}`;
    return u.toString();
  };
  try {
    await q(`CREATE DATABASE ${names.A}`);
    await q(`CREATE DATABASE ${names.B}`);
  } catch (err) {
    result.postgres = { error: `no PostgreSQL at ${admin}: ${(err as Error).message}` };
    print('routes against the same-payload bare route, PostgreSQL', result.postgres);
    await q(`DROP DATABASE IF EXISTS ${names.A} WITH (FORCE)`).catch(() => {});
    return result;
  }
  try {
    const envs = {
      A: { ...plain, DATABASE_URL: urlOf(names.A) },
      B: { ...plain, DATABASE_URL: urlOf(names.B) },
    };
    result.postgres = await series(envs, dirs, serverDir, seconds);
    result.summary.postgres = summarize(result.postgres);
    print('routes against the same-payload bare route, PostgreSQL', result.summary.postgres);
  } catch (err) {
    result.postgres = { error: (err as Error).message };
    print('routes against the same-payload bare route, PostgreSQL', result.postgres);
  } finally {
    await q(`DROP DATABASE IF EXISTS ${names.A} WITH (FORCE)`);
    await q(`DROP DATABASE IF EXISTS ${names.B} WITH (FORCE)`);
  }
  return result;
}

const self = process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (self && process.argv[2] === '--serve') {
  serve(process.argv[3], process.argv[4]).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else if (self) {
  const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const print = (label: string, v: unknown) => console.log(`${label.padEnd(56)} ${JSON.stringify(v)}`);
  benchRevocation(serverDir, print).then(
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
