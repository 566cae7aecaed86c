// What the live-state check costs (docs/server.md "Live state and cache epochs"): GET /api/blade-system/menu/routes for
// a logged-in admin with the per-request live-state query on, and off (the bench swaps the guard's `app.access.live` for the token's claims), in the
// same run on the same data, alternated on/off/on/off. Each run: one request at a time (p50/p99 of the round trip) and
// autocannon with 50 connections (req/s, p50/p99). On PGlite always; on PostgreSQL when one answers at BENCH_PG_URL
// (default postgres://postgres@127.0.0.1:5432/postgres) in a throwaway database.
// Alone: `cd apps/server && npx tsx bench/revocation.ts`, or `BENCH_ONLY=revocation npm run bench` at the root.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { BASIC, load, md5, spawnNode, stop, waitFor, type Load } from './lib.ts';

const PORT = 8094;
const ROUTES = `http://127.0.0.1:${PORT}/api/blade-system/menu/routes`;

type Stat = { p50: number; p99: number; n: number };
type Run = { live: 'on' | 'off'; sequential: Stat; concurrent: Load };
export type RevocationResult = {
  pglite: Run[] | { error: string };
  postgres: Run[] | { error: string };
  summary: Record<
    string,
    Record<'on' | 'off', { sequentialP50: number; sequentialP99: number; rps: number; p50: number; p99: number }>
  >;
};

const round = (x: number) => Math.round(x * 1000) / 1000;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const median = (xs: number[]) => pct(xs, 50);

/** The server of one run: migrate and seed when empty, then listen with the live-state check on or off. */
async function serve(mode: 'on' | 'off', dataDir: string) {
  const { loadConfig } = await import('../src/config.ts');
  const { openDatabase } = await import('../src/db/client.ts');
  const { seedIfEmpty } = await import('../src/seed/seed.ts');
  const { resolveSigningKey } = await import('../src/db/signing-key.ts');
  const { buildApp } = await import('../src/app.ts');
  const config = loadConfig({ ...process.env, ATRIUM_DATA_DIR: dataDir, ATRIUM_CAPTCHA: 'off', LOG_LEVEL: 'warn' });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir });
  await database.migrate();
  await seedIfEmpty(database.db, { adminPassword: 'admin' });
  const { key } = await resolveSigningKey(config, database);
  const { app } = await buildApp({ config, db: database.db, signingKey: key });
  if (mode === 'off') {
    // What the check costs: requests act on the token's claims without the live-state query, so logouts, removals
    // and role changes wait for the token's expiry.
    app.access.live = async (claims) => ({ ...claims, mustChange: !!claims.mustChange });
    app.access.speculate = () => undefined;
  }
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

/** One server run: warm, then one request at a time, then 50 connections. */
async function measure(
  mode: 'on' | 'off',
  dataDir: string,
  env: Record<string, string>,
  serverDir: string,
  seconds: number,
): Promise<Run> {
  const child = spawnNode(['bench/revocation.ts', '--serve', mode, dataDir], env, serverDir);
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += String(d)));
  try {
    await waitFor(`http://127.0.0.1:${PORT}/api/blade-system/tenant/info?domain=x`, 120_000).catch((err) => {
      throw new Error(`${err.message}\n${stderr}`);
    });
    const headers = { authorization: BASIC, 'blade-auth': `bearer ${await token()}` };
    const check = await fetch(ROUTES, { headers });
    if (check.status !== 200) throw new Error(`routes answered ${check.status}`);
    await load(ROUTES, headers, 2);
    const times: number[] = [];
    const n = Number(process.env.BENCH_REVOCATION_REQUESTS ?? 2000);
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = await fetch(ROUTES, { headers });
      await r.arrayBuffer();
      times.push(performance.now() - t0);
    }
    const sequential = { p50: round(pct(times, 50)), p99: round(pct(times, 99)), n };
    const concurrent = await load(ROUTES, headers, seconds);
    return { live: mode, sequential, concurrent };
  } finally {
    await stop(child);
  }
}

/** on, off, on, off over the same data (the first run migrates and seeds it). */
async function series(env: Record<string, string>, serverDir: string, seconds: number): Promise<Run[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-rev-'));
  try {
    const runs: Run[] = [];
    for (const mode of ['on', 'off', 'on', 'off'] as const)
      runs.push(await measure(mode, dataDir, env, serverDir, seconds));
    return runs;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function summarize(runs: Run[]) {
  const of = (mode: 'on' | 'off') => {
    const rs = runs.filter((r) => r.live === mode);
    return {
      sequentialP50: round(median(rs.map((r) => r.sequential.p50))),
      sequentialP99: round(median(rs.map((r) => r.sequential.p99))),
      rps: Math.round(median(rs.map((r) => r.concurrent.rps))),
      p50: median(rs.map((r) => r.concurrent.p50)),
      p99: median(rs.map((r) => r.concurrent.p99)),
    };
  };
  return { on: of('on'), off: of('off') };
}

export async function benchRevocation(
  serverDir: string,
  print: (label: string, v: unknown) => void,
  seconds = Number(process.env.BENCH_SECONDS ?? 10),
): Promise<RevocationResult> {
  const result: RevocationResult = { pglite: { error: 'not run' }, postgres: { error: 'not run' }, summary: {} };
  const base = { DATABASE_URL: '', ATRIUM_JWT_SECRET: '' };
  try {
    result.pglite = await series(base, serverDir, seconds);
    result.summary.pglite = summarize(result.pglite);
    print('routes, live check on / off, PGlite', result.summary.pglite);
  } catch (err) {
    result.pglite = { error: (err as Error).message };
    print('routes, live check on / off, PGlite', result.pglite);
  }

  const admin = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `atrium_bench_rev_${randomBytes(4).toString('hex')}`;
  const q = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  try {
    await q(`CREATE DATABASE ${name}`);
  } catch (err) {
    result.postgres = { error: `no PostgreSQL at ${admin}: ${(err as Error).message}` };
    print('routes, live check on / off, PostgreSQL', result.postgres);
    return result;
  }
  try {
    const u = new URL(admin);
    u.pathname = `/${name}`;
    result.postgres = await series({ ...base, DATABASE_URL: u.toString() }, serverDir, seconds);
    result.summary.postgres = summarize(result.postgres);
    print('routes, live check on / off, PostgreSQL', result.summary.postgres);
  } catch (err) {
    result.postgres = { error: (err as Error).message };
    print('routes, live check on / off, PostgreSQL', result.postgres);
  } finally {
    await q(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  return result;
}

const self = process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (self && process.argv[2] === '--serve') {
  serve(process.argv[3] === 'off' ? 'off' : 'on', process.argv[4]).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else if (self) {
  const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const print = (label: string, v: unknown) => console.log(`${label.padEnd(48)} ${JSON.stringify(v)}`);
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
