import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { Poller } from '../../platform/poller.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { claimEverywhere } from '../../platform/tenant-route.ts';
import { storeOfAttachment } from './service.ts';
import { removeObject } from './storage.ts';
import { attachRemoval } from './table.ts';

/** How the removal worker runs (docs/system-api.md "Files"); tests shorten the times. */
export type RemovalWorkerOptions = {
  /** Look for due removals this often. */
  pollMs: number;
  /** Removals claimed at once. */
  batch: number;
  /** A claim lasts this long: a removal claimed by a process that died is taken again after it. */
  leaseMs: number;
  /** The wait after the first failure, doubled at each one after it, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
};

export const DEFAULT_REMOVAL_WORKER: RemovalWorkerOptions = {
  pollMs: 30_000,
  batch: 20,
  leaseMs: 5 * 60_000,
  backoffMs: 30_000,
  maxBackoffMs: 60 * 60_000,
};

/**
 * Queues the stored objects of removed attachments, in the removal's own transaction: the record is gone if and only if
 * its object is queued for deletion.
 */
export async function queueRemovals(
  s: Services,
  tx: Db,
  rows: { id: string; tenantId: string; ossId: string | null; objectKey: string | null; name: string }[],
): Promise<void> {
  if (!rows.length) return;
  await tx.insert(attachRemoval).values(
    rows.map((r) => ({
      id: newId(),
      tenantId: r.tenantId,
      attachId: r.id,
      ossId: r.ossId,
      objectKey: r.objectKey ?? r.name,
      dueAt: s.now(),
    })),
  );
}

/**
 * Deletes the queued objects (`attach_removal`): claims due rows (FOR UPDATE SKIP LOCKED and a lease, so several
 * servers share the work), deletes each object through the configuration it was stored with (read under its
 * tenant's row-level security), and drops the row; a store that fails keeps the row for a later round, after a backoff
 * (30 s doubling, at most 1 h), until it succeeds. Nothing is kept in memory: after a restart the rows are found again.
 */
export class RemovalWorker {
  readonly id = `${os.hostname().slice(0, 30)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly poller: Poller;
  readonly options: RemovalWorkerOptions;
  /** Claim rounds so far: each starts at another database (platform/tenant-route.ts `queueDatabases`). */
  private round = 0;

  constructor(
    private readonly s: Services,
    options: Partial<RemovalWorkerOptions> = {},
    private readonly log?: FastifyBaseLogger,
  ) {
    this.options = { ...DEFAULT_REMOVAL_WORKER, ...options };
    this.poller = new Poller(
      s.db,
      this.options.pollMs,
      async () => (await this.runOnce()).claimed >= this.options.batch,
      (err) => this.log?.error({ err }, 'attachment removal worker: a round failed'),
    );
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /**
   * One round: claims up to `batch` due removals — of these attachments only, when `attachIds` is given (the removal
   * that just committed) — and deletes their objects; answers how many were claimed and how many are done.
   */
  async runOnce(attachIds?: string[]): Promise<{ claimed: number; removed: number }> {
    const due = await this.claim(attachIds);
    let removed = 0;
    for (const r of due) {
      try {
        const store = await withTenant(this.s.db, r.tenantId, (tx) =>
          storeOfAttachment(this.s, tx, r.tenantId, r.ossId),
        );
        await removeObject(store, r.objectKey);
        await r.db.delete(attachRemoval).where(and(eq(attachRemoval.id, r.id), eq(attachRemoval.lockedBy, this.id)));
        removed++;
      } catch (err) {
        this.log?.warn(
          { err, object: r.objectKey, attempts: r.attempts },
          'a removed attachment’s object is kept for now',
        );
        await this.later(r.db, r.id, r.attempts, err);
      }
    }
    return { claimed: due.length, removed };
  }

  /** Due removals of every database that holds queues (the main one and the data sources of moved tenants). */
  private claim(attachIds?: string[]) {
    return claimEverywhere(
      this.s.db,
      this.round++,
      this.options.batch,
      (db, limit) => this.claimOn(db, limit, attachIds),
      (err) => this.log?.error({ err }, 'attachment removal worker: a data source could not be polled'),
    );
  }

  private async claimOn(db: Db, limit: number, attachIds?: string[]) {
    const now = this.s.now();
    const due = db
      .select({ id: attachRemoval.id })
      .from(attachRemoval)
      .where(
        and(
          lte(attachRemoval.dueAt, now),
          or(isNull(attachRemoval.lockedUntil), lte(attachRemoval.lockedUntil, now)),
          attachIds ? inArray(attachRemoval.attachId, attachIds) : undefined,
        ),
      )
      .orderBy(attachRemoval.dueAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    return db
      .update(attachRemoval)
      .set({
        lockedUntil: new Date(now.getTime() + this.options.leaseMs),
        lockedBy: this.id,
        attempts: sql`${attachRemoval.attempts} + 1`,
      })
      .where(inArray(attachRemoval.id, due))
      .returning();
  }

  /** The store failed: the removal is due again after the backoff of its attempts so far. */
  private async later(db: Db, id: string, attempts: number, err: unknown) {
    const { backoffMs, maxBackoffMs } = this.options;
    const wait = Math.min(maxBackoffMs, backoffMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
    const message = err instanceof Error ? err.message : String(err);
    await db
      .update(attachRemoval)
      .set({
        dueAt: new Date(this.s.now().getTime() + wait),
        lockedUntil: null,
        lockedBy: null,
        lastError: message.slice(0, 500),
      })
      .where(and(eq(attachRemoval.id, id), eq(attachRemoval.lockedBy, this.id)));
  }
}
