import { and, eq, inArray, sql } from 'drizzle-orm';
import { SUBDOMAIN_STATUS } from '@atrium/contract/resources/subdomain/subdomain_list';
import { connectionStringOf, type Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { jobLockKey } from '../../platform/singleton.ts';
import { afterTenantTx, readTenant } from '../../platform/tenant-db.ts';
import { databaseOfTenant, isMoving, tenantRoutesOf } from '../../platform/tenant-route.ts';
import { subdomainTexts as texts } from './messages.ts';
import { subDomain, subDomainHost } from './table.ts';

/**
 * The host namespace (`sub_domain_host`, docs/subdomains.md "Full domains across tenants") is one table on the main
 * database, whatever database a tenant's rows are on (docs/tenants.md "Sub-domain hosts of a moved tenant"):
 * - a tenant on the main database claims, releases and starts its hosts in the application's own transaction;
 * - a tenant on a data source claims a host on the main database before its transaction commits (the primary key
 *   decides between tenants at once), the claim is taken back if that transaction rolls back, and every other change
 *   (released, running, stopped) is brought from its applications to the main database after the commit
 *   (`syncHosts`); a sweep does the same every HOST_SWEEP_MS for each moved tenant, so a server that dies between a
 *   commit and its sync leaves a host wrong for seconds, not for ever.
 */

/** A claim younger than this is an application whose transaction may still be running: a sync leaves it alone. */
export const HOST_CLAIM_GRACE_MS = 60_000;
/** How often each moved tenant's hosts are brought in step with its applications (once per cluster). */
export const HOST_SWEEP_MS = 10_000;

/** Whether the tenant's rows live on a data source: its hosts are then written on the main database apart. */
export const hostsApart = (s: Services, tenantId: string) => databaseOfTenant(s.db, tenantId) !== s.db;

const takenError = () => badRequest(texts.taken, [{ field: 'subDomain', message: texts.taken }]);

const uniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

/**
 * Claims a full domain for the application `subDomainId`, which the caller's transaction has just written: the
 * primary key of the host table makes it one tenant's, and a race lost to another application is the "taken"
 * refusal. A moved tenant's claim is written on the main database at once and taken back if `tx` rolls back; a claim
 * of the same tenant that no live application holds (a rolled-back one whose undo was lost) is taken over.
 */
export async function claimHost(s: Services, tx: Db, tenantId: string, subDomainId: string, fullDomain: string) {
  if (!hostsApart(s, tenantId)) {
    try {
      await tx.execute(sql`savepoint claim_host`);
      await tx.insert(subDomainHost).values({ fullDomain, tenantId, subDomainId, running: 0 });
      await tx.execute(sql`release savepoint claim_host`);
    } catch (err) {
      await tx.execute(sql`rollback to savepoint claim_host`);
      if (uniqueViolation(err)) throw takenError();
      throw err;
    }
    return;
  }
  // The application's label is unique among the tenant's live ones (its index), and a full domain is its label and
  // base: a live application of this tenant holding the domain would be this one.
  const [own] = await rowsOf<{ id: string }>(
    tx,
    sql`select id from ${subDomain} where tenant_id = ${tenantId} and full_domain = ${fullDomain}
         and is_deleted = 0 and status <> ${SUBDOMAIN_STATUS.rejected} and id <> ${subDomainId} limit 1`,
  );
  if (own) throw takenError();
  const claimed = await rowsOf<{ ok: number }>(
    s.db,
    sql`insert into ${subDomainHost} (full_domain, tenant_id, sub_domain_id, running, claimed_at)
        values (${fullDomain}, ${tenantId}, ${subDomainId}, 0, now())
        on conflict (full_domain) do update
          set sub_domain_id = excluded.sub_domain_id, running = 0, claimed_at = now()
          where ${subDomainHost}.tenant_id = excluded.tenant_id
        returning 1 as ok`,
  );
  if (!claimed.length) throw takenError();
  afterTenantTx(tx, async (committed) => {
    if (committed) return;
    // Undone; a failure here is the sweep's to repair once the claim is older than HOST_CLAIM_GRACE_MS.
    await s.db
      .delete(subDomainHost)
      .where(
        and(
          eq(subDomainHost.fullDomain, fullDomain),
          eq(subDomainHost.tenantId, tenantId),
          eq(subDomainHost.subDomainId, subDomainId),
        ),
      )
      .catch(() => {});
  });
}

/** The transactions that have their tenant's sync to run at their end: one sync covers every row they changed. */
const syncing = new WeakSet<Db>();

/** After a moved tenant's transaction commits, its hosts follow its applications (a failure: the sweep's). */
function syncAfter(s: Services, tx: Db, tenantId: string) {
  if (syncing.has(tx)) return;
  const registered = afterTenantTx(tx, async (committed) => {
    syncing.delete(tx);
    if (committed) await syncHosts(s, tenantId).catch(() => {});
  });
  if (registered) syncing.add(tx);
}

/** Frees the full domain of an application (rejected or removed). */
export async function releaseHost(s: Services, tx: Db, tenantId: string, subDomainId: string) {
  if (hostsApart(s, tenantId)) return syncAfter(s, tx, tenantId);
  await tx
    .delete(subDomainHost)
    .where(and(eq(subDomainHost.tenantId, tenantId), eq(subDomainHost.subDomainId, subDomainId)));
}

/** Whether the host answers (`ask`, `tenant/info`): set with the running state. */
export async function setHostRunning(s: Services, tx: Db, tenantId: string, subDomainId: string, running: boolean) {
  if (hostsApart(s, tenantId)) return syncAfter(s, tx, tenantId);
  await tx
    .update(subDomainHost)
    .set({ running: running ? 1 : 0 })
    .where(and(eq(subDomainHost.tenantId, tenantId), eq(subDomainHost.subDomainId, subDomainId)));
}

/** Whether another tenant holds a full domain: for a moved tenant's legality check (its own are its applications). */
export async function takenElsewhere(s: Services, tenantId: string, fullDomain: string): Promise<boolean> {
  const [row] = await rowsOf<{ ok: number }>(
    s.db,
    sql`select 1 as ok from ${subDomainHost} where full_domain = ${fullDomain} and tenant_id <> ${tenantId} limit 1`,
  );
  return !!row;
}

/** What one sync changed on the main database; `ran: false` when another server held the tenant's turn. */
export type HostSync = { ran: boolean; inserted: number; updated: number; deleted: number; conflicts: string[] };

/**
 * Brings a tenant's rows of the host table on the main database in step with its live applications, wherever they
 * live: a host for each application neither removed nor rejected, running while it runs; a host whose application was
 * removed or rejected is deleted, and one whose application is not there once older than HOST_CLAIM_GRACE_MS. One sync of a tenant at a time in the cluster
 * (an advisory lock of the main database, taken before the applications are read, so the last sync reads the last
 * commit); `wait: false` skips a tenant another server is syncing. PostgreSQL only (moves need it).
 */
export async function syncHosts(s: Services, tenantId: string, opts: { wait?: boolean } = {}): Promise<HostSync> {
  const out: HostSync = { ran: false, inserted: 0, updated: 0, deleted: 0, conflicts: [] };
  if (!connectionStringOf(s.db)) return out;
  const key = String(jobLockKey('subdomain-hosts', tenantId));
  return s.db.transaction(async (main) => {
    if (opts.wait === false) {
      const [got] = await rowsOf<{ ok: boolean }>(main, sql`select pg_try_advisory_xact_lock(${key}::bigint) as ok`);
      if (!got?.ok) return out;
    } else await main.execute(sql`select pg_advisory_xact_lock(${key}::bigint)`);
    out.ran = true;
    const held = await rowsOf<{ full_domain: string; sub_domain_id: string; running: number; old: boolean }>(
      main,
      sql`select full_domain, sub_domain_id::text, running,
                 claimed_at < now() - make_interval(secs => ${HOST_CLAIM_GRACE_MS / 1000}) as old
            from ${subDomainHost} where tenant_id = ${tenantId} for update`,
    );
    const { apps, ended } = await readTenant(s.db, tenantId, async (tx) => ({
      apps: await tx
        .select({ id: subDomain.id, fullDomain: subDomain.fullDomain, status: subDomain.status })
        .from(subDomain)
        .where(
          and(
            eq(subDomain.tenantId, tenantId),
            eq(subDomain.isDeleted, 0),
            sql`${subDomain.status} <> ${SUBDOMAIN_STATUS.rejected}`,
          ),
        ),
      // The held hosts whose application is there and no longer live: released, whatever their age.
      ended: held.length
        ? await tx
            .select({ id: subDomain.id })
            .from(subDomain)
            .where(
              and(
                eq(subDomain.tenantId, tenantId),
                inArray(
                  subDomain.id,
                  held.map((h) => h.sub_domain_id),
                ),
                sql`(${subDomain.isDeleted} <> 0 or ${subDomain.status} = ${SUBDOMAIN_STATUS.rejected})`,
              ),
            )
        : [],
    }));
    const gone = new Set(ended.map((e) => String(e.id)));
    const wanted = new Map(
      apps.map((a) => [a.fullDomain, { id: a.id, running: a.status === SUBDOMAIN_STATUS.running ? 1 : 0 }]),
    );
    for (const h of held) {
      const w = wanted.get(h.full_domain);
      wanted.delete(h.full_domain);
      if (!w) {
        // A claim without an application may be one whose transaction is still running: left while young.
        if (!h.old && !gone.has(h.sub_domain_id)) continue;
        await main.delete(subDomainHost).where(eq(subDomainHost.fullDomain, h.full_domain));
        out.deleted++;
      } else if (String(w.id) !== h.sub_domain_id || w.running !== h.running) {
        await main
          .update(subDomainHost)
          .set({ subDomainId: w.id, running: w.running })
          .where(eq(subDomainHost.fullDomain, h.full_domain));
        out.updated++;
      }
    }
    for (const [fullDomain, w] of wanted) {
      const put = await main
        .insert(subDomainHost)
        .values({ fullDomain, tenantId, subDomainId: w.id, running: w.running })
        .onConflictDoNothing()
        .returning({ fullDomain: subDomainHost.fullDomain });
      if (put.length) out.inserted++;
      else out.conflicts.push(fullDomain);
    }
    return out;
  });
}

type Log = { info: (o: object, msg: string) => void; warn: (o: object, msg: string) => void };

/**
 * Every HOST_SWEEP_MS, each tenant on a data source (and not being moved) has its hosts synced, once per cluster; a
 * sync that changed something is logged (a server died between a commit and its sync, or an undo was lost).
 * Answers the stop.
 */
export function sweepHosts(s: Services, log: Log): () => void {
  if (!connectionStringOf(s.db)) return () => {};
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      for (const tenantId of [...tenantRoutesOf(s.db).databases.keys()]) {
        if (isMoving(s.db, tenantId)) continue;
        try {
          const r = await syncHosts(s, tenantId, { wait: false });
          if (r.inserted || r.updated || r.deleted) log.info({ tenantId, ...r }, 'sub-domain hosts repaired');
          if (r.conflicts.length)
            log.warn({ tenantId, conflicts: r.conflicts }, 'sub-domain hosts held by another tenant');
        } catch (err) {
          log.warn({ tenantId, err }, 'sub-domain hosts not synced');
        }
      }
    })().finally(() => (busy = false));
  }, HOST_SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
