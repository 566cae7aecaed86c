// The metrics' cost per request (issue 28 "Done when"; docs/deploy.md "Metrics"): two servers of this build on one
// throwaway PostgreSQL database, A without metrics and B with them (ATRIUM_METRICS_PORT), both logged in as admin;
// a list call goes to each in turn — which one goes first alternates — so a change of the shared machine's speed meets
// both alike. After METRICS_WARM rounds, METRICS_N rounds are timed: each server's p50 and p99 and its CPU per call
// (from /proc), then B's against A's. Then B's endpoint is scraped METRICS_SCRAPES times: its time and CPU per scrape
// (a scrape every 15 s costs that once per 15 s, whatever the request rate).
// Usage: `cd apps/server && npx tsx bench/metrics.ts` (or BENCH_ONLY=metrics npm run bench). Knobs: METRICS_N (4000),
// METRICS_WARM (3000), METRICS_PATH (the user list, page 1), METRICS_PORT_A / _B / _SCRAPE (8151, 8152, 8153).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  captchaLogin,
  cpuMs,
  keepAliveGet,
  round,
  runIfMain,
  sleep,
  spawnNode,
  stat,
  stop,
  throwawayDb,
  waitFor,
} from './lib.ts';
import { BASIC } from './lib.ts';
import Fastify from 'fastify';
import { createMetricsRegistry, registerRequestMetrics } from '../src/platform/metrics.ts';

const SCRIPT = 'test/captcha-file-server.ts';

export async function metricsCost(serverDir: string) {
  const n = Number(process.env.METRICS_N ?? 4000);
  const warm = Number(process.env.METRICS_WARM ?? 3000);
  const scrapes = Number(process.env.METRICS_SCRAPES ?? 200);
  const listPath = process.env.METRICS_PATH ?? '/api/blade-user/page?current=1&size=10';
  const portA = Number(process.env.METRICS_PORT_A ?? 8151);
  const portB = Number(process.env.METRICS_PORT_B ?? 8152);
  const portScrape = Number(process.env.METRICS_PORT_SCRAPE ?? 8153);
  process.env.METRICS_PORT_A = String(portA);
  const db = await throwawayDb('metrics', 'METRICS_PORT_A', 'METRICS_KEEP_DB');
  const children: ReturnType<typeof spawnNode>[] = [];
  const start = async (port: number, extra: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-metrics-'));
    const captchaFile = path.join(dir, 'captchas.txt');
    const child = spawnNode(
      [SCRIPT],
      {
        ...db.env,
        PORT: String(port),
        ATRIUM_DATA_DIR: dir,
        ATRIUM_MQTT_PORT: '0',
        ATRIUM_E2E_CAPTCHA_FILE: captchaFile,
        ...extra,
      },
      serverDir,
    );
    child.stdout?.resume();
    child.stderr?.resume();
    children.push(child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/healthz`, 120_000);
    const token = await captchaLogin(base, captchaFile);
    return { child, base, dir, headers: { authorization: BASIC, 'blade-auth': `bearer ${token}` } };
  };
  try {
    // A first: it migrates and seeds; B finds the database ready.
    const a = await start(portA, {});
    const b = await start(portB, { ATRIUM_METRICS_PORT: String(portScrape) });
    const call = async (s: typeof a) => {
      const t = performance.now();
      const status = await keepAliveGet(s.base + listPath, s.headers);
      if (status !== 200) throw new Error(`${listPath} answered ${status}`);
      return performance.now() - t;
    };
    const times = { a: [] as number[], b: [] as number[] };
    const cpu = { a: 0, b: 0 };
    for (let i = 0; i < warm + n; i++) {
      if (i === warm) {
        cpu.a = cpuMs(a.child.pid) ?? 0;
        cpu.b = cpuMs(b.child.pid) ?? 0;
      }
      const [ta, tb] = i % 2 ? [await call(a), await call(b)] : [await call(b), await call(a)].reverse();
      if (i >= warm) {
        times.a.push(ta);
        times.b.push(tb);
      }
    }
    const cpuPerCall = (s: typeof a, at: number) => round((((cpuMs(s.child.pid) ?? 0) - at) / n) * 1000) / 1000;
    const sa = stat(times.a);
    const sb = stat(times.b);
    const aCpu = cpuPerCall(a, cpu.a);
    const bCpu = cpuPerCall(b, cpu.b);

    // The scrape: its size, time and the server's CPU for it.
    const scrapeUrl = `http://127.0.0.1:${portScrape}/metrics`;
    const first = await (await fetch(scrapeUrl)).text();
    const scrapeTimes: number[] = [];
    const cpuBefore = cpuMs(b.child.pid) ?? 0;
    for (let i = 0; i < scrapes; i++) {
      const t = performance.now();
      await keepAliveGet(scrapeUrl);
      scrapeTimes.push(performance.now() - t);
    }
    const scrapeCpu = round(((cpuMs(b.child.pid) ?? 0) - cpuBefore) / scrapes);
    return {
      path: listPath,
      rounds: { warm, timed: n },
      a: { metrics: false, ...sa, cpuMsPerCall: aCpu },
      b: { metrics: true, ...sb, cpuMsPerCall: bCpu },
      bOverAP50: round(sb.p50 / sa.p50),
      bOverAP99: round(sb.p99 / sa.p99),
      cpuUsPerCallBMinusA: round((bCpu - aCpu) * 1000),
      scrape: {
        bytes: first.length,
        series: first.split('\n').filter((l) => l && !l.startsWith('#')).length,
        ...stat(scrapeTimes),
        cpuMsPerScrape: scrapeCpu,
      },
      loadavg: os.loadavg().map(round),
    };
  } finally {
    for (const c of children) await stop(c);
    await sleep(100);
    await db.close();
  }
}

/**
 * The timing hook alone, in this process: two bare Fastify apps with one route, one with `registerRequestMetrics`,
 * called through `inject` in alternating batches; the CPU per call (process.cpuUsage) of each batch, medians. What the
 * HTTP A/B above cannot show on a loaded machine: the hook's own few microseconds.
 */
export async function hookCost(batches = Number(process.env.METRICS_BATCHES ?? 40), size = 2000) {
  const make = async (timed: boolean) => {
    const app = Fastify();
    if (timed) registerRequestMetrics(app, createMetricsRegistry());
    app.get('/api/blade-user/page', async () => ({ code: 200, success: true, data: { records: [], total: 0 } }));
    await app.ready();
    return app;
  };
  const plain = await make(false);
  const timed = await make(true);
  const perCall = { plain: [] as number[], timed: [] as number[] };
  const batch = async (app: typeof plain) => {
    const c = process.cpuUsage();
    for (let i = 0; i < size; i++) await app.inject({ method: 'GET', url: '/api/blade-user/page?current=1&size=10' });
    const d = process.cpuUsage(c);
    return (d.user + d.system) / size;
  };
  for (let i = 0; i < batches + 4; i++) {
    const [p, t] =
      i % 2 ? [await batch(plain), await batch(timed)] : [await batch(timed), await batch(plain)].reverse();
    if (i >= 4) {
      perCall.plain.push(p);
      perCall.timed.push(t);
    }
  }
  await plain.close();
  await timed.close();
  const med = (xs: number[]) => round([...xs].sort((a, b) => a - b)[xs.length >> 1]);
  return {
    batches,
    callsPerBatch: size,
    plainCpuUsPerCall: med(perCall.plain),
    timedCpuUsPerCall: med(perCall.timed),
    hookCpuUs: round(med(perCall.timed) - med(perCall.plain)),
    pairedMedianUs: med(perCall.timed.map((t, i) => t - perCall.plain[i])),
  };
}

runIfMain(import.meta.url, async (serverDir) =>
  process.env.METRICS_ONLY === 'hook' ? hookCost() : { hook: await hookCost(), http: await metricsCost(serverDir) },
);
