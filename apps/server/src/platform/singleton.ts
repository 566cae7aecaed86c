import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { withTenant } from './tenant-db.ts';
import { isMoving } from './tenant-route.ts';

/**
 * The advisory lock key of one job for one tenant: the first 63 bits of SHA-256 of `atrium:<job>:<tenant>` (a
 * signed bigint, as PostgreSQL's advisory locks take). The start-up lock (db/client.ts) is a fixed small key.
 */
export function jobLockKey(job: string, tenantId: string): bigint {
  const h = createHash('sha256').update(`atrium:${job}:${tenantId}`).digest();
  return h.readBigInt64BE(0) & 0x7fffffffffffffffn;
}

/** What `oncePerCluster` answers: the work's value, or that another server is doing it right now. */
export type OnceOutcome<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `fn` for `tenantId` in one transaction under the tenant's row-level security (withTenant) if no other server
 * of the cluster is running the same job for the same tenant at this moment (docs/cluster.md "What runs once").
 * The lock is `pg_try_advisory_xact_lock`, taken first in the transaction: it never waits, and it ends with the
 * transaction — commit, rollback, or the connection dying with its server — so nothing is left to clean up.
 * `{ ran: false }`: another server holds it; its work counts, and a job that must not skip a tenant for good
 * (a daily rollup) tries again later. On PGlite (one process, one connection) the lock is always free. A tenant
 * being moved (docs/tenants.md "Moving a tenant") is `{ ran: false }` too, not its 503: a job over every tenant goes
 * on with the next one.
 */
export async function oncePerCluster<T>(
  db: Db,
  job: string,
  tenantId: string,
  fn: (tx: Db) => Promise<T>,
): Promise<OnceOutcome<T>> {
  const key = jobLockKey(job, tenantId);
  if (isMoving(db, tenantId)) return { ran: false };
  return withTenant(db, tenantId, async (tx) => {
    const [got] = await rowsOf<{ ok: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${String(key)}::bigint) as ok`,
    );
    if (!got?.ok) return { ran: false } as const;
    return { ran: true, value: await fn(tx) } as const;
  });
}
