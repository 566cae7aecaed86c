import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { isApiCall } from '@atrium/contract';
import type { Availability } from '../db/availability.ts';
import { gateOf, type Db } from '../db/client.ts';
import { hashLine } from './password.ts';

/**
 * Prometheus metrics (docs/deploy.md "Metrics"), on `prom-client`. Each app has a registry of its own
 * (`Services.metrics`): the platform's metrics are made here, a module adds its own in its plugin with
 * `registers: [s.metrics]` (docs/server.md "Registries"), and gauges are read when scraped (`collect`), so they cost
 * nothing between scrapes. The endpoint is a port of its own (`serveMetrics`), never the main one.
 */
export const createMetricsRegistry = () => new Registry();

/** Seconds: from a fast cached read to a slow export. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATUS_CLASS = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/**
 * The `route` label of a request: an API route's pattern (`/api/video/hls/:id/:file`, never the URL it was called
 * with: the labels stay a bounded set with no tenant, record id or query in them), the two probes by name, `static`
 * for the console's files and pages, `unmatched` for what no route answered.
 */
export function routeLabel(pattern: string | undefined): string {
  if (pattern === undefined) return 'unmatched';
  if (isApiCall(pattern) || pattern === '/healthz' || pattern === '/readyz') return pattern;
  return 'static';
}

/**
 * Times every answer (`atrium_http_request_duration_seconds{method, route, status}`, status by class: `2xx`…) and
 * turns on node's default process metrics. Only when metrics are on: off, nothing is timed. One labelled series is
 * looked up per request in a map of its own (prom-client would hash the labels at every observation).
 */
export function registerRequestMetrics(app: FastifyInstance, registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  const histogram = new Histogram({
    name: 'atrium_http_request_duration_seconds',
    help: 'Time from the request to its answer, by route pattern, method and status class',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const series = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  app.addHook('onResponse', (req, reply, done) => {
    const route = routeLabel(req.routeOptions.url);
    const status = STATUS_CLASS[(reply.statusCode / 100) | 0] ?? 'other';
    const key = `${req.method} ${status} ${route}`;
    let one = series.get(key);
    if (!one) {
      one = histogram.labels(req.method, route, status);
      series.set(key, one);
    }
    one.observe(reply.elapsedTime / 1000);
    done();
  });
}

/**
 * The database's and the password line's metrics: up or down, the fair gate's places in use, its line and the time
 * spent in it (docs/server.md "Under load"), the password hashes running and waiting (platform/password.ts).
 */
export function registerPlatformMetrics(registry: Registry, db: Db, availability: Availability | undefined): void {
  const gate = gateOf(db);
  new Gauge({
    name: 'atrium_db_up',
    help: 'Whether the database is reachable (0 while API calls are answered 503)',
    registers: [registry],
    collect() {
      this.set(availability?.down ? 0 : 1);
    },
  });
  if (gate) {
    new Gauge({
      name: 'atrium_db_gate_in_use',
      help: 'Database places (pool connections, or the embedded database) held now',
      registers: [registry],
      collect() {
        this.set(gate.inUse);
      },
    });
    new Gauge({
      name: 'atrium_db_gate_size',
      help: 'Database places there are',
      registers: [registry],
      collect() {
        this.set(gate.size);
      },
    });
    new Gauge({
      name: 'atrium_db_gate_queued',
      help: 'Requests waiting for a database place now',
      registers: [registry],
      collect() {
        this.set(gate.queued);
      },
    });
    const waits = new Histogram({
      name: 'atrium_db_gate_wait_seconds',
      help: 'Time a request waited for a database place, for those that had to wait',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    gate.onWait = (seconds) => waits.observe(seconds);
  }
  new Gauge({
    name: 'atrium_password_hash_queue',
    help: 'Password hashes waiting for a thread (process-wide)',
    registers: [registry],
    collect() {
      this.set(hashLine().waiting);
    },
  });
  new Gauge({
    name: 'atrium_password_hash_running',
    help: 'Password hashes running now (process-wide)',
    registers: [registry],
    collect() {
      this.set(hashLine().running);
    },
  });
}

/** Equal tokens, in time that does not depend on where they differ. */
function sameToken(given: string, token: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

export type MetricsServer = { port: number; close(): Promise<void> };

/**
 * The metrics endpoint: `GET /metrics` on a port of its own (ATRIUM_METRICS_PORT, on ATRIUM_METRICS_HOST, loopback by
 * default), a plain node HTTP server beside the app's. With `token`, a scrape without `Authorization: Bearer <token>`
 * is answered 401. Anything else is a 404.
 */
export async function serveMetrics(
  registry: Registry,
  o: { port: number; host: string; token?: string },
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (o.token) {
      const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!sameToken(given, o.token)) return answer(401, 'Unauthorized\n', { 'www-authenticate': 'Bearer' });
    }
    if ((req.method !== 'GET' && req.method !== 'HEAD') || (req.url ?? '').split('?')[0] !== '/metrics')
      return answer(404, 'Not found: GET /metrics\n');
    registry.metrics().then(
      (text) => answer(200, text, { 'content-type': registry.contentType }),
      () => answer(500, 'The metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
