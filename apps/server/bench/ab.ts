// Two builds of the server side by side, for work on the client page's time (docs/clients.md "Bench"): server A from
// AB_A (a server directory, e.g. a `git worktree` of the commit before a change) and server B from this checkout, both
// on a database the client-page bench kept, each with the bench's region admin logged in. The calls go in turn —
// A, B, then the raw SQL of the client-page bench — so a change of the shared machine's speed meets both builds
// alike; after AB_WARM rounds (V8 optimises a request's code over its first thousands of calls) AB_N rounds are timed.
// Prints each build's p50, its ratio to the raw SQL and its CPU per call, and B's against A's.
// Usage: `cd apps/server && AB_A=/tmp/ab-base/apps/server STEADY_DB=atrium_bench_xxxx npx tsx bench/ab.ts`.
// Knobs: AB_N (2000), AB_WARM (4000), AB_B_FLAGS (more flags for B's node, e.g. a GC setting), STEADY_PATH (the client page, page 1), STEADY_REGION (110101).
// One build with two settings: AB_A=. and AB_B_ENV='NAME=value …' (AB_A_ENV likewise), as the driver A/B did
// (bench-results/2026-11-27-driver-ab.md).
// Another call than the client page: STEADY_PATH with AB_RAW=0 (no raw SQL beside it); a write: AB_METHOD=POST and
// AB_BODY (JSON; `{{i}}` in it becomes nine digits new at every call).
import http from 'node:http';
import pg from 'pg';
import { rawQueries } from './clients.ts';
import { cpuMs, keepAliveGet, round, runIfMain, stat } from './lib.ts';

const envOf = (s: string | undefined) =>
  Object.fromEntries(
    (s ?? '')
      .split(' ')
      .filter(Boolean)
      .map((kv) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)]),
  );

/** The last answer's text of a write (said when it is refused). */
let lastText = '';
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });
/** A keep-alive request with a JSON body; resolves with the status once the answer is read. */
function keepAliveSend(url: string, method: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, agent: keepAlive, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          lastText = text;
          // The envelope's own code: a refused write answers 200 with another code in some routes.
          const code = (() => {
            try {
              return (JSON.parse(text) as { code?: number }).code;
            } catch {
              return undefined;
            }
          })();
          resolve(code !== undefined && code !== 200 ? code : (res.statusCode ?? 0));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
import { startBenchServer } from './steady.ts';

export async function ab(serverDir: string) {
  const dbName = process.env.STEADY_DB;
  const dirA = process.env.AB_A;
  if (!dbName || !dirA) throw new Error('AB_A (server directory of build A) and STEADY_DB (a kept bench database)');
  const n = Number(process.env.AB_N ?? 2000);
  const warm = Number(process.env.AB_WARM ?? 4000);
  const path = process.env.STEADY_PATH ?? '/api/blade-business/clientInfo/page?current=1&size=10';
  const method = process.env.AB_METHOD ?? 'GET';
  const body = process.env.AB_BODY ?? '';
  const withRaw = process.env.AB_RAW !== '0';
  const current = Number(new URL(path, 'http://x').searchParams.get('current') ?? 1);
  const a = await startBenchServer(dirA, dbName, 18441, {
    env: { ATRIUM_MQTT_PORT: '18443', ...envOf(process.env.AB_A_ENV) },
  });
  const b = await startBenchServer(serverDir, dbName, 18442, {
    env: { ATRIUM_MQTT_PORT: '18444', ...envOf(process.env.AB_B_ENV) },
    nodeFlags: process.env.AB_B_FLAGS?.split(' ').filter(Boolean),
  }).catch(async (e) => {
    await a.stop();
    throw e;
  });
  const raw = new pg.Client({ connectionString: a.url });
  try {
    await raw.connect();
    const rq = rawQueries('100050', process.env.STEADY_REGION ?? '110101', current, 10);
    const times = { a: [] as number[], b: [] as number[], raw: [] as number[] };
    const cpu = { a: 0, b: 0 };
    // Nine digits, new at every call of either build (a phone number is "13{{i}}").
    let calls = Math.floor(Math.random() * 4e8);
    const call = async (s: typeof a) => {
      const numbered = body.replaceAll('{{i}}', String(100_000_000 + calls++));
      const t = performance.now();
      const status =
        method === 'GET'
          ? await keepAliveGet(s.base + path, s.headers)
          : await keepAliveSend(s.base + path, method, numbered, s.headers);
      if (status !== 200)
        throw new Error(`${path} answered ${status} ${method === 'GET' ? '' : lastText.slice(0, 300)}`);
      return performance.now() - t;
    };
    for (let i = 0; i < warm + n; i++) {
      if (i === warm) {
        cpu.a = cpuMs(a.child.pid) ?? 0;
        cpu.b = cpuMs(b.child.pid) ?? 0;
      }
      // Which build goes first alternates: neither always follows the raw SQL.
      const [ta, tb] = i % 2 ? [await call(a), await call(b)] : [await call(b), await call(a)].reverse();
      const t = performance.now();
      if (withRaw) {
        await raw.query(rq.count);
        await raw.query(rq.page);
      }
      const tr = performance.now() - t;
      if (i >= warm) {
        times.a.push(ta);
        times.b.push(tb);
        times.raw.push(tr);
      }
    }
    const perCall = (s: typeof a, at: number) => round(((cpuMs(s.child.pid) ?? 0) - at) / n);
    const sa = stat(times.a);
    const sb = stat(times.b);
    const sr = stat(times.raw);
    return {
      path,
      rounds: { warm, timed: n },
      env: { a: envOf(process.env.AB_A_ENV), b: envOf(process.env.AB_B_ENV) },
      a: { dir: dirA, ...sa, ratio: withRaw ? round(sa.p50 / sr.p50) : null, cpuMsPerCall: perCall(a, cpu.a) },
      b: { dir: serverDir, ...sb, ratio: withRaw ? round(sb.p50 / sr.p50) : null, cpuMsPerCall: perCall(b, cpu.b) },
      raw: withRaw ? sr : null,
      bOverA: round(sb.p50 / sa.p50),
      bOverAP99: round(sb.p99 / sa.p99),
    };
  } finally {
    await raw.end().catch(() => {});
    await Promise.all([a.stop(), b.stop()]);
  }
}

runIfMain(import.meta.url, ab);
