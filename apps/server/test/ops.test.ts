// Issue 28 §3: what an operator sees (docs/deploy.md "Health and readiness", "Metrics", "Request ids"): the two
// probes, the Prometheus endpoint on a port of its own, request ids from the proxy through the logs.
import net from 'node:net';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import { loggerOptions } from '../src/platform/logging.ts';
import { READY_CACHE_MS } from '../src/platform/health.ts';
import { serveMetrics, type MetricsServer } from '../src/platform/metrics.ts';
import { deviceAccessOf } from '../src/modules/device-access/module.ts';
import { bearer, createTestApp, createTestDb, loginToken, testConfig, type TestApp } from './harness.ts';
import { startDbProxy } from './support/db-proxy.ts';

const TOKEN = 'scrape-token-for-the-test-0123';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Line = { msg?: string; reqId?: string; req?: { url?: string }; level?: number };

let t: TestApp;
let metrics: MetricsServer;
let admin: string;
const lines: Line[] = [];

beforeAll(async () => {
  const stream = { write: (s: string) => void lines.push(JSON.parse(s) as Line) };
  t = await createTestApp({ metrics: { enabled: true, port: 0, host: '127.0.0.1', token: TOKEN } }, undefined, {
    logger: { ...(loggerOptions('info') as object), stream },
  });
  metrics = await serveMetrics(t.services.metrics, { port: 0, host: '127.0.0.1', token: TOKEN });
  admin = (await loginToken(t)).access;
});
afterAll(async () => {
  await metrics?.close();
  await t?.close();
});

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, path = '/metrics') =>
  fetch(`http://127.0.0.1:${metrics.port}${path}`, { headers });

/** Turns the database's state down (as a lost connection does) for the duration of `fn`. */
async function whileDown<T>(t: TestApp, fn: () => Promise<T>): Promise<T> {
  const availability = t.database.availability;
  Object.defineProperty(availability, 'down', { get: () => true, configurable: true });
  try {
    return await fn();
  } finally {
    delete (availability as { down?: boolean }).down;
  }
}

describe('health and readiness', () => {
  it('/healthz answers 200 without a token, also while the database is down', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
    const down = await whileDown(t, () => t.app.inject({ method: 'GET', url: '/healthz' }));
    expect(down.statusCode).toBe(200);
  });

  it('/readyz answers 200 with its checks; 503 naming the database while it is down', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok' } });
    const down = await whileDown(t, () => t.app.inject({ method: 'GET', url: '/readyz' }));
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', checks: { database: 'down', migrations: 'unknown' } });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('/readyz answers 503 naming the migrations when the database lacks this build’s newest', async () => {
    const newest = `(select max(created_at) from drizzle.__drizzle_migrations)`;
    await t.database.db.execute(
      `update drizzle.__drizzle_migrations set created_at = created_at - 1 where created_at = ${newest}`,
    );
    try {
      await sleep(READY_CACHE_MS + 50);
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toEqual({ database: 'ok', migrations: 'pending' });
    } finally {
      await t.database.db.execute(
        `update drizzle.__drizzle_migrations set created_at = created_at + 1 where created_at = ${newest}`,
      );
    }
    await sleep(READY_CACHE_MS + 50);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('a burst of 300 probes is answered 200, none rate-limited, and none is in the info-level log', async () => {
    const before = lines.length;
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => t.app.inject({ method: 'GET', url: i % 2 ? '/readyz' : '/healthz' })),
    );
    expect(answers.filter((a) => a.statusCode !== 200)).toEqual([]);
    const probeLines = lines.slice(before).filter((l) => /\/(healthz|readyz)/.test(l.req?.url ?? ''));
    expect(probeLines).toEqual([]);
    // …while an API call still is.
    await t.app.inject({ method: 'GET', url: '/api/blade-system/tenant/info?domain=x' });
    expect(lines.slice(before).some((l) => l.req?.url?.startsWith('/api/blade-system/tenant/info'))).toBe(true);
  });
});

describe('readiness with an external MQTT broker (ATRIUM_MQTT_URL)', () => {
  it('is 200 while subscribed at the broker, 503 naming the broker once it is lost', async () => {
    const broker = await Aedes.createBroker();
    const sockets = new Set<net.Socket>();
    const server = net.createServer((s) => {
      sockets.add(s);
      broker.handle(s);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as net.AddressInfo).port;
    const u = await createTestApp({
      mqtt: { port: null, portExplicit: false, url: `mqtt://127.0.0.1:${port}`, heartbeatSeconds: 60 },
    });
    try {
      await deviceAccessOf(u.services)!.intake!.ready;
      const ok = await u.app.inject({ method: 'GET', url: '/readyz' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().checks).toEqual({ database: 'ok', migrations: 'ok', broker: 'ok' });
      const scraped = await u.services.metrics.metrics();
      expect(scraped).toMatch(/^atrium_mqtt_connected 1$/m);
      // The broker goes away: the server's connection closes.
      for (const s of sockets) s.destroy();
      server.close();
      await new Promise<void>((r) => broker.close(() => r()));
      await sleep(200);
      const lost = await u.app.inject({ method: 'GET', url: '/readyz' });
      expect(lost.statusCode).toBe(503);
      expect(lost.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', migrations: 'ok', broker: 'down' },
      });
      // Metrics off on this server: nothing is timed, the module's gauges are there.
      expect(await u.services.metrics.metrics()).not.toContain('atrium_http_request_duration_seconds');
    } finally {
      await u.close();
    }
  });
});

describe('metrics', () => {
  it('are not served on the main port', async () => {
    for (const url of ['/metrics', '/api/metrics']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.body).not.toContain('# HELP');
      expect(res.body).not.toContain('atrium_');
    }
  });

  it('refuse a scrape without the token, or with another one (401); anything but GET /metrics is a 404', async () => {
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: TOKEN },
    ];
    for (const headers of refused) {
      const res = await scrape(headers);
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain('atrium_');
    }
    expect((await scrape(undefined, '/')).status).toBe(404);
  });

  it('time a called route by its pattern and status class, with no tenant id, record id, query or token in a label', async () => {
    const secret = 'S3cretQueryValue';
    await t.app.inject({ method: 'GET', url: `/api/video/hls/8812345678901/index.m3u8?token=${secret}` });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/blade-user/page?current=1&size=10&account=${secret}`,
      headers: bearer(admin),
    });
    expect(list.statusCode).toBe(200);
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(
      /^atrium_http_request_duration_seconds_count\{method="GET",route="\/api\/blade-user\/page",status="2xx"\} [1-9]/m,
    );
    expect(text).toMatch(/route="\/api\/video\/hls\/:streamId\/:file",status="4xx"/);
    const labelValues = [...text.matchAll(/="([^"]*)"/g)].map((m) => m[1]);
    for (const bad of ['000000', '8812345678901', secret, admin, TOKEN, '?'])
      expect(labelValues.filter((v) => v.includes(bad))).toEqual([]);
  });

  it('hold the pool, live streams, device messages, outbox backlog, hash line and process metrics', async () => {
    const text = await (await scrape()).text();
    for (const name of [
      /^atrium_db_up 1$/m,
      /^atrium_db_gate_in_use \d+$/m,
      /^atrium_db_gate_queued \d+$/m,
      /^atrium_db_gate_wait_seconds_count \d+$/m,
      /^atrium_video_streams\{state="playing"\} 0$/m,
      /^atrium_device_messages_received_total 0$/m,
      /^atrium_outbox_backlog\{state="queued"\} \d+$/m,
      /^atrium_outbox_backlog\{state="due"\} \d+$/m,
      /^atrium_password_hash_queue \d+$/m,
      /^process_cpu_seconds_total /m,
      /^nodejs_eventloop_lag_seconds /m,
    ])
      expect(text).toMatch(name);
  });

  it('say the database is down, with no backlog count, while it is', async () => {
    const text = await whileDown(t, async () => (await scrape()).text());
    expect(text).toMatch(/^atrium_db_up 0$/m);
    // prom-client writes NaN as `Nan`, which Prometheus reads as NaN.
    expect(text).toMatch(/^atrium_outbox_backlog\{state="queued"\} NaN$/im);
  });
});

describe('request ids', () => {
  it('the proxy’s X-Request-Id is answered back and carried by the request’s log lines', async () => {
    const id = '5f1c2b7a9e0d4c3b8a716253f4e5d6c7';
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/blade-system/tenant/info?domain=x',
      headers: { 'x-request-id': id },
    });
    expect(res.headers['x-request-id']).toBe(id);
    const mine = lines.filter((l) => l.reqId === id);
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
  });

  it('a hostile X-Request-Id (too long, control characters, spaces, two joined) is replaced by a new one', async () => {
    for (const hostile of [
      'a'.repeat(129),
      'abcdefgh\u0000\u001b[2Jforged',
      'abcdefgh\tinjected',
      'abcdefgh {"level":60}',
      'abcdefgh12, ijklmnop34',
      'short',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': hostile } });
      const given = res.headers['x-request-id'];
      expect(given).not.toBe(hostile);
      expect(given).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    // No line carries what was sent.
    expect(JSON.stringify(lines)).not.toContain('forged');
  });

  it('a request without one gets a new id, answered too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

const onPg = describe.skipIf(!process.env.DATABASE_URL);
onPg('readiness on PostgreSQL behind a relay that goes down', () => {
  it('is 503 (database down) while the relay refuses, 200 again once it relays', async () => {
    const testDb = await createTestDb();
    const u = new URL(testDb.databaseUrl!);
    const proxy = await startDbProxy({ host: u.hostname, port: Number(u.port || 5432) });
    const database = await openDatabase({ databaseUrl: proxy.via(testDb.databaseUrl!), poolSize: 2 });
    const { config, dataDir } = testConfig();
    const { app, services } = await buildApp({ config, db: database.db, signingKey: 'k'.repeat(64) });
    try {
      await app.ready();
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await proxy.down();
      await sleep(READY_CACHE_MS + 50);
      const down = await app.inject({ method: 'GET', url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json().checks.database).toBe('down');
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect(await services.metrics.metrics()).toMatch(/^atrium_db_up 0$/m);
      await proxy.up();
      const t0 = Date.now();
      let status = 0;
      while (Date.now() - t0 < 10_000 && status !== 200) {
        await sleep(100);
        status = (await app.inject({ method: 'GET', url: '/readyz' })).statusCode;
      }
      expect(status).toBe(200);
    } finally {
      await app.close();
      await database.close();
      await proxy.close();
      await testDb.close();
      (await import('node:fs')).rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
