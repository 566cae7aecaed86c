import type { FastifyInstance } from 'fastify';
import type { Availability } from '../db/availability.ts';
import { appliedMigrationSql, newestMigrationMillis, type Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import type { Services } from './services.ts';

/**
 * A readiness check of a module (docs/deploy.md "Health and readiness"): answers at once, from state the module keeps
 * (the broker connection, say), whether this server can do its work. It never waits for I/O.
 */
export type ReadyCheck = () => boolean;

declare module './services.ts' {
  interface Registry {
    /** The modules' readiness checks by name (`registerReadiness`), asked by `GET /readyz`. */
    readiness?: Map<string, ReadyCheck>;
  }
}

/** Adds a named check to what `GET /readyz` asks (a module calls it in its plugin). */
export function registerReadiness(s: Services, name: string, check: ReadyCheck): void {
  (s.registry.readiness ??= new Map()).set(name, check);
}

/** How long one database check's answer is reused: a probe flood costs one statement a second. */
export const READY_CACHE_MS = 1000;
/** How long the database check waits for its statement before it says `timeout`. */
export const READY_DB_TIMEOUT_MS = 2000;

type DbChecks = { database: string; migrations: string };

/**
 * The database's part of readiness: reachable (the availability state first — down answers at once — then one
 * statement with a deadline) and migrated (its newest applied migration is this build's newest). One statement
 * serves both; its answer is kept for READY_CACHE_MS and callers meanwhile share the one in flight.
 */
function databaseCheck(db: Db, availability: Availability | undefined) {
  const newest = newestMigrationMillis();
  let kept: { at: number; checks: DbChecks } | undefined;
  let inFlight: Promise<DbChecks> | undefined;
  const ask = async (): Promise<DbChecks> => {
    try {
      const [row] = await rowsOf<{ newest: string }>(db, appliedMigrationSql);
      return { database: 'ok', migrations: Number(row?.newest ?? 0) >= newest ? 'ok' : 'pending' };
    } catch (err) {
      // A database that went away turns the state down (API calls are answered 503 at once until a probe connects).
      return { database: availability?.failed(err) ? 'down' : 'error', migrations: 'unknown' };
    }
  };
  return async (): Promise<DbChecks> => {
    if (availability?.down) return { database: 'down', migrations: 'unknown' };
    if (kept && Date.now() - kept.at < READY_CACHE_MS) return kept.checks;
    inFlight ??= ask().then((checks) => {
      inFlight = undefined;
      kept = { at: Date.now(), checks };
      return checks;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<DbChecks>((resolve) => {
      timer = setTimeout(() => resolve({ database: 'timeout', migrations: 'unknown' }), READY_DB_TIMEOUT_MS);
    });
    try {
      return await Promise.race([inFlight, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The answers of the two probes are never kept by a cache; their request lines stay out of the info-level log. */
const PROBE_ROUTE = { logLevel: 'warn', config: { auth: 'none' } } as const;

/**
 * `GET /healthz` (the process answers; touches nothing) and `GET /readyz` (the database is reachable and migrated,
 * and every module's check holds — the external MQTT broker connected, when one is configured): 200
 * `{status: 'ok', checks}` or 503 `{status: 'unavailable', checks}` naming what failed. Unauthenticated, outside
 * `/api` (no tenant, no token, no rate limit). docs/deploy.md "Health and readiness".
 */
export function registerHealth(app: FastifyInstance, s: Services, availability: Availability | undefined): void {
  const database = databaseCheck(s.db, availability);
  app.get('/healthz', PROBE_ROUTE, (_req, reply) => {
    reply.header('cache-control', 'no-store').send({ status: 'ok' });
  });
  app.get('/readyz', PROBE_ROUTE, async (_req, reply) => {
    const checks: Record<string, string> = { ...(await database()) };
    for (const [name, check] of s.registry.readiness ?? []) checks[name] = check() ? 'ok' : 'down';
    const ok = Object.values(checks).every((c) => c === 'ok');
    return reply
      .status(ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ok ? 'ok' : 'unavailable', checks });
  });
}
