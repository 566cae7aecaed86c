import type { Db } from '../db/client.ts';
import { AppError } from './errors.ts';
import { platformTexts } from './messages.ts';

/**
 * Which database holds each tenant's rows (docs/tenants.md "Routing"). A tenant bound to a data source has its own
 * pool there; every other tenant lives on the main database. `withTenant` / `readTenant` (platform/tenant-db.ts) ask
 * here first, so every tenant transaction of a moved tenant goes to its database; a tenant being moved is refused
 * with a 503. The table is kept per main database (each app's `s.db`) by the tenant module, which owns the binding
 * (modules/tenant/move.ts): filled at start from the tenant rows and updated by the live events of the tenant table.
 */
export type TenantRoutes = {
  /** The database of a bound tenant (undefined: the main database). */
  databases: Map<string, Db>;
  /** Tenants being moved: their transactions are refused until the move ends. */
  moving: Set<string>;
  /** Transactions in progress per tenant on this server (a move waits for them to end). */
  running: Map<string, number>;
};

const routes = new WeakMap<Db, TenantRoutes>();

/** The routing table of a main database, made on first use. */
export function tenantRoutesOf(db: Db): TenantRoutes {
  let r = routes.get(db);
  if (!r) routes.set(db, (r = { databases: new Map(), moving: new Set(), running: new Map() }));
  return r;
}

/**
 * The database a tenant's transaction runs on, and a release to call when it ends. Refused (503) while the tenant is
 * being moved. A database without a table answers itself.
 */
export function routeTenant(db: Db, tenantId: string): { db: Db; done: () => void } {
  const r = routes.get(db);
  if (!r) return { db, done: () => {} };
  if (r.moving.has(tenantId)) throw new AppError(503, platformTexts.tenantMoving);
  r.running.set(tenantId, (r.running.get(tenantId) ?? 0) + 1);
  let ended = false;
  return {
    db: r.databases.get(tenantId) ?? db,
    done: () => {
      if (ended) return;
      ended = true;
      const n = (r.running.get(tenantId) ?? 1) - 1;
      if (n > 0) r.running.set(tenantId, n);
      else r.running.delete(tenantId);
    },
  };
}

/**
 * Every database whose queues hold work (docs/tenants.md "Background work"): the main one and each data source a
 * tenant is bound to. A queue row (`flow_timer`, `outbox_job`, `attach_removal`) is written in its tenant's
 * transaction, so it lives where the tenant's rows live; the workers claim from each of these databases.
 */
export function queueDatabases(main: Db, round = 0): Db[] {
  const r = routes.get(main);
  const all = r ? [main, ...new Set(r.databases.values())] : [main];
  // Each round starts at another database, so a full queue on one never starves the others.
  const at = round % all.length;
  return [...all.slice(at), ...all.slice(0, at)];
}

/**
 * Claims queue rows from every database of `queueDatabases`, up to `batch` in all, each row with the database it
 * lives on. A data source that fails is left for this round (`onError`); the main database's failure fails the round.
 */
export async function claimEverywhere<T>(
  main: Db,
  round: number,
  batch: number,
  claim: (db: Db, limit: number) => Promise<T[]>,
  onError: (err: unknown) => void,
): Promise<(T & { db: Db })[]> {
  const out: (T & { db: Db })[] = [];
  for (const db of queueDatabases(main, round)) {
    const limit = batch - out.length;
    if (limit <= 0) break;
    try {
      for (const row of await claim(db, limit)) out.push({ ...row, db });
    } catch (err) {
      if (db === main) throw err;
      onError(err);
    }
  }
  return out;
}

/** The database a tenant's rows are on now (its data source's, else the main one); makes no routing table. */
export const databaseOfTenant = (main: Db, tenantId: string): Db => routes.get(main)?.databases.get(tenantId) ?? main;

/** Whether the tenant is being moved (its transactions are refused); makes no routing table. */
export const isMoving = (main: Db, tenantId: string): boolean => routes.get(main)?.moving.has(tenantId) ?? false;
