import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client.ts';
import { Poller } from '../../../platform/poller.ts';
import { claimEverywhere } from '../../../platform/tenant-route.ts';
import type { Services } from '../../../platform/services.ts';
import { flowTimer } from '../table.ts';
import { fireTimer, type TimerOutcome } from './service.ts';

/** How the timer worker runs (docs/workflow.md "Timers"); tests shorten the times. */
export type TimerWorkerOptions = {
  /** Look for due timers this often. */
  pollMs: number;
  /** Timers claimed at once. */
  batch: number;
  /** A claim lasts this long: a timer claimed by a process that died is taken again after it. */
  leaseMs: number;
  /** A timer whose touch failed is tried again after this long. */
  retryMs: number;
};

export const DEFAULT_TIMER_WORKER: TimerWorkerOptions = { pollMs: 1000, batch: 20, leaseMs: 60_000, retryMs: 30_000 };

/**
 * Fires the workflow's due timers: claims due rows of `flow_timer` (FOR UPDATE SKIP LOCKED and a lease, so several
 * servers share the work) and touches each one's instance in its tenant's transaction (`fireTimer`). Nothing is
 * kept in memory: after a restart the due timers are simply found again.
 */
export class TimerWorker {
  readonly id = `${os.hostname().slice(0, 30)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly poller: Poller;
  readonly options: TimerWorkerOptions;
  /** Claim rounds so far: each starts at another database (platform/tenant-route.ts `queueDatabases`). */
  private round = 0;

  constructor(
    private readonly s: Services,
    options: Partial<TimerWorkerOptions> = {},
    private readonly log?: FastifyBaseLogger,
  ) {
    this.options = { ...DEFAULT_TIMER_WORKER, ...options };
    this.poller = new Poller(
      s.db,
      this.options.pollMs,
      async () => (await this.runOnce()) >= this.options.batch,
      (err) => this.log?.error({ err }, 'flow timer worker: a round failed'),
    );
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** One round: claims up to `batch` due timers and fires them; answers how many were claimed. */
  async runOnce(): Promise<number> {
    const due = await this.claim();
    for (const t of due) {
      const outcome = await fireTimer(this.s, t).catch((err: unknown): TimerOutcome | 'failed' => {
        this.log?.error({ err, timerId: t.id, instanceId: t.instanceId }, 'flow timer worker: a timer failed');
        return 'failed';
      });
      await this.release(t.db, t.id, outcome);
    }
    return due.length;
  }

  /** Due timers of every database that holds queues (the main one and the data sources of moved tenants). */
  private claim() {
    return claimEverywhere(
      this.s.db,
      this.round++,
      this.options.batch,
      (db, limit) => this.claimOn(db, limit),
      (err) => this.log?.error({ err }, 'flow timer worker: a data source could not be polled'),
    );
  }

  private async claimOn(db: Db, limit: number) {
    const now = this.s.now();
    const due = db
      .select({ id: flowTimer.id })
      .from(flowTimer)
      .where(and(lte(flowTimer.dueAt, now), or(isNull(flowTimer.lockedUntil), lte(flowTimer.lockedUntil, now))))
      .orderBy(flowTimer.dueAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    return db
      .update(flowTimer)
      .set({ lockedUntil: new Date(now.getTime() + this.options.leaseMs), lockedBy: this.id })
      .where(inArray(flowTimer.id, due))
      .returning({ id: flowTimer.id, tenantId: flowTimer.tenantId, instanceId: flowTimer.instanceId });
  }

  /** The claim ends: a timer still there (not yet due by the engine's clock, or failed) is looked at again later. */
  private async release(db: Db, id: string, outcome: TimerOutcome | 'failed') {
    const later = outcome === 'failed' ? this.options.retryMs : this.options.pollMs;
    await db
      .update(flowTimer)
      .set({ lockedUntil: new Date(this.s.now().getTime() + later), lockedBy: null })
      .where(and(eq(flowTimer.id, id), eq(flowTimer.lockedBy, this.id)));
  }
}
