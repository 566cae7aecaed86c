import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { retryWhileUnavailable } from '../../db/availability.ts';
import { attach } from '../../db/schema/index.ts';
import { openAttachment } from '../resource/index.ts';
import { Poller } from '../../platform/poller.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { claimEverywhere } from '../../platform/tenant-route.ts';
import type { Db } from '../../db/client.ts';
import { outboxTexts } from './messages.ts';
import { DeliveryError, sendEmail, sendSms, type SmsConfig, type SmtpSettings } from './providers.ts';
import { unseal } from '../../platform/secrets.ts';
import { outbox, outboxJob, smsConfig, smtpConfig } from './table.ts';

/** How the worker runs (docs/outbox.md "Worker"); tests shorten the times. */
export type WorkerOptions = {
  /** Look for due messages this often when idle. */
  pollMs: number;
  /** Messages claimed at once. */
  batch: number;
  /** A claim lasts this long: a message claimed by a process that died is taken again after it. */
  leaseMs: number;
  /** Attempts before a message is marked failed. */
  maxAttempts: number;
  /** Wait before the second attempt; doubled for each further one, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
};

export const DEFAULT_WORKER: WorkerOptions = {
  pollMs: 2000,
  batch: 10,
  leaseMs: 5 * 60_000,
  maxAttempts: 6,
  backoffMs: 30_000,
  maxBackoffMs: 3600_000,
};

const STATUS = { queued: 1, sent: 2, failed: 3 } as const;

declare module '../../platform/services.ts' {
  interface Registry {
    /** The app's running outbox workers, which a queued message wakes (docs/server.md "Registries"). */
    outboxWorkers?: Set<OutboxWorker>;
  }
}

/** Tells the running workers of this app to look now (a message was just queued); another app's are not woken. */
export function kickWorkers(s: Services): void {
  for (const w of s.registry.outboxWorkers ?? []) w.kick();
}

/** A claimed job and the database its row lives on (its tenant's: docs/tenants.md "Background work"). */
type Claimed = { id: string; tenantId: string; attempts: number; db: Db };
type Outcome = { ok: true; provider: string } | { ok: false; error: string; permanent: boolean };

/** The delay before attempt `attempts + 1`. */
export const backoff = (o: WorkerOptions, attempts: number) =>
  Math.min(o.maxBackoffMs, o.backoffMs * 2 ** Math.max(0, attempts - 1));

/**
 * Delivers the outbox: claims due jobs (FOR UPDATE SKIP LOCKED, so several servers share the work), reads each
 * message and its tenant's configuration under that tenant's row-level security, sends outside any transaction,
 * then records the outcome (sent, a retry with backoff, or failed) if it still holds the claim.
 */
export class OutboxWorker {
  readonly id = `${os.hostname().slice(0, 30)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** Started by `start()` (a round run by hand, as tests do, never stops midway). */
  private started = false;
  /** Claim rounds so far: each starts at another database (platform/tenant-route.ts `queueDatabases`). */
  private round = 0;
  private readonly poller: Poller;
  readonly options: WorkerOptions;

  constructor(
    private readonly s: Services,
    options: Partial<WorkerOptions> = {},
    private readonly log?: FastifyBaseLogger,
  ) {
    this.options = { ...DEFAULT_WORKER, ...options };
    this.poller = new Poller(
      s.db,
      this.options.pollMs,
      async () => (await this.runOnce()) >= this.options.batch,
      (err) => this.log?.error({ err }, 'outbox worker: a round failed'),
    );
  }

  private get running() {
    return this.poller.running;
  }

  start(): void {
    if (this.running) return;
    this.started = true;
    (this.s.registry.outboxWorkers ??= new Set()).add(this);
    this.poller.start();
  }

  /** Stops polling, lets the message in hand finish, and hands back the claims not yet started. */
  async stop(): Promise<void> {
    this.s.registry.outboxWorkers?.delete(this);
    await this.poller.stop();
  }

  /** Look soon (a message was queued in a transaction that is about to commit). */
  kick(): void {
    this.poller.kick();
  }

  /** One round: claims up to `batch` due messages and delivers them; answers how many were claimed. */
  async runOnce(): Promise<number> {
    const jobs = await this.claim();
    for (let i = 0; i < jobs.length; i++) {
      if (this.started && !this.running) {
        await this.release(jobs.slice(i));
        break;
      }
      await this.handle(jobs[i]).catch((err: unknown) =>
        this.log?.error({ err, outboxId: jobs[i].id }, 'outbox worker: a message could not be handled'),
      );
    }
    return jobs.length;
  }

  /** Due jobs of every database that holds queues (the main one and the data sources of moved tenants). */
  private claim(): Promise<Claimed[]> {
    return claimEverywhere(
      this.s.db,
      this.round++,
      this.options.batch,
      (db, limit) => this.claimOn(db, limit),
      (err) => this.log?.error({ err }, 'outbox worker: a data source could not be polled'),
    );
  }

  private async claimOn(db: Db, limit: number) {
    const now = this.s.now();
    const due = db
      .select({ id: outboxJob.id })
      .from(outboxJob)
      .where(and(lte(outboxJob.dueAt, now), or(isNull(outboxJob.lockedUntil), lte(outboxJob.lockedUntil, now))))
      .orderBy(outboxJob.dueAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    return db
      .update(outboxJob)
      .set({
        lockedUntil: new Date(now.getTime() + this.options.leaseMs),
        lockedBy: this.id,
        attempts: sql`${outboxJob.attempts} + 1`,
      })
      .where(inArray(outboxJob.id, due))
      .returning({ id: outboxJob.id, tenantId: outboxJob.tenantId, attempts: outboxJob.attempts });
  }

  private async release(jobs: Claimed[]) {
    for (const db of new Set(jobs.map((j) => j.db))) {
      const ids = jobs.filter((j) => j.db === db).map((j) => j.id);
      await db
        .update(outboxJob)
        .set({ lockedUntil: null, lockedBy: null, attempts: sql`${outboxJob.attempts} - 1` })
        .where(and(inArray(outboxJob.id, ids), eq(outboxJob.lockedBy, this.id)));
    }
  }

  private async handle(job: Claimed) {
    // Read the message and what delivering it needs, in one short transaction of its tenant. A short outage of the
    // database is waited out, here and when the outcome is recorded (within half the claim's lease): a message sent
    // but not recorded would be sent again when its claim runs out (docs/outbox.md "Worker").
    const plan = await retryWhileUnavailable(() => this.plan(job), this.options.leaseMs / 2);
    if (!plan) {
      await job.db.delete(outboxJob).where(and(eq(outboxJob.id, job.id), eq(outboxJob.lockedBy, this.id)));
      return;
    }
    const outcome = await this.deliver(job, plan).catch((err: unknown): Outcome =>
      err instanceof DeliveryError
        ? { ok: false, error: err.message, permanent: err.permanent }
        : { ok: false, error: (err as Error)?.message ?? String(err), permanent: false },
    );
    await retryWhileUnavailable(() => this.record(job, outcome), this.options.leaseMs / 2);
  }

  /** The message of a claimed job and what delivering it needs; null when there is nothing to deliver any more. */
  private plan(job: Claimed) {
    const s = this.s;
    return withTenant(s.db, job.tenantId, async (tx) => {
      const [row] = await tx
        .select()
        .from(outbox)
        .where(and(eq(outbox.id, job.id), eq(outbox.tenantId, job.tenantId)));
      if (!row || row.isDeleted || row.status !== STATUS.queued) return null;
      if (row.channel === 'sms') {
        const [cfg] = await tx
          .select()
          .from(smsConfig)
          .where(
            and(
              eq(smsConfig.tenantId, job.tenantId),
              eq(smsConfig.isDeleted, 0),
              row.configId ? eq(smsConfig.id, row.configId) : eq(smsConfig.status, 2),
            ),
          );
        return { row, sms: cfg ?? null, missing: !!row.configId && !cfg };
      }
      const [cfg] = await tx
        .select()
        .from(smtpConfig)
        .where(
          and(
            eq(smtpConfig.tenantId, job.tenantId),
            eq(smtpConfig.isDeleted, 0),
            row.configId ? eq(smtpConfig.id, row.configId) : eq(smtpConfig.status, 2),
          ),
        );
      const ids = row.attachIds ? row.attachIds.split(',') : [];
      const files = ids.length
        ? await tx
            .select({
              id: attach.id,
              name: attach.name,
              originalName: attach.originalName,
              link: attach.link,
              ossId: attach.ossId,
              objectKey: attach.objectKey,
            })
            .from(attach)
            .where(and(eq(attach.tenantId, job.tenantId), inArray(attach.id, ids)))
        : [];
      return { row, smtp: cfg ?? null, files, ids, missing: !!row.configId && !cfg };
    });
  }

  private async deliver(
    job: Claimed,
    plan:
      | { row: typeof outbox.$inferSelect; sms: typeof smsConfig.$inferSelect | null; missing: boolean }
      | {
          row: typeof outbox.$inferSelect;
          smtp: typeof smtpConfig.$inferSelect | null;
          files: {
            id: string;
            name: string;
            originalName: string | null;
            link: string;
            ossId: string | null;
            objectKey: string | null;
          }[];
          ids: string[];
          missing: boolean;
        },
  ): Promise<Outcome> {
    const s = this.s;
    const { row } = plan;
    if ('sms' in plan) {
      if (plan.missing) throw new DeliveryError(outboxTexts.configGone.en, true);
      const cfg = plan.sms;
      if (!cfg || cfg.category === 1) return { ok: true, provider: 'outbox' };
      const secretKey = unseal(s, cfg.secretKeySealed);
      if (cfg.secretKeySealed && secretKey === null) throw new DeliveryError(outboxTexts.secretUnreadable.en);
      const config: SmsConfig = { ...cfg, secretKey };
      let params: Record<string, string> = {};
      try {
        params = JSON.parse(row.params ?? '{}') as Record<string, string>;
      } catch {
        params = {};
      }
      const provider = await sendSms(
        config,
        {
          id: job.id,
          tenantId: job.tenantId,
          phone: row.recipient,
          text: row.content ?? '',
          templateCode: row.templateCode,
          params,
        },
        s.now(),
      );
      return { ok: true, provider };
    }
    if (plan.missing) throw new DeliveryError(outboxTexts.configGone.en, true);
    const cfg = plan.smtp;
    if (!cfg) return { ok: true, provider: 'outbox' };
    const password = unseal(s, cfg.passwordSealed);
    if (cfg.passwordSealed && password === null) throw new DeliveryError(outboxTexts.secretUnreadable.en);
    // Each file is read from where it was stored: the server's disk or its storage configuration (docs/outbox.md).
    const attachments = [];
    for (const id of plan.ids) {
      const f = plan.files.find((x) => x.id === id);
      const content = f ? await openAttachment(s, job.tenantId, f).catch(() => null) : null;
      if (!f || !content) {
        for (const a of attachments) a.content.destroy();
        throw new DeliveryError(`attachment ${id} is no longer stored`, true);
      }
      attachments.push({ filename: f.originalName || f.name, content });
    }
    const settings: SmtpSettings = { ...cfg, password };
    let provider: string;
    try {
      provider = await sendEmail(settings, {
        to: row.recipient,
        subject: row.subject ?? '',
        text: row.content,
        html: row.html,
        attachments,
        messageId: `<${job.id}.${job.tenantId}@atrium>`,
      });
    } finally {
      for (const a of attachments) a.content.destroy();
    }
    return { ok: true, provider };
  }

  /** Writes the outcome, if this worker still holds the claim (else another took it after the lease ran out). */
  private async record(job: Claimed, outcome: Outcome) {
    const s = this.s;
    const now = s.now();
    const o = this.options;
    await withTenant(s.db, job.tenantId, async (tx) => {
      const finished = outcome.ok || outcome.permanent || job.attempts >= o.maxAttempts;
      const next = new Date(now.getTime() + backoff(o, job.attempts));
      const held = finished
        ? await tx
            .delete(outboxJob)
            .where(and(eq(outboxJob.id, job.id), eq(outboxJob.lockedBy, this.id)))
            .returning({ id: outboxJob.id })
        : await tx
            .update(outboxJob)
            .set({ dueAt: next, lockedUntil: null, lockedBy: null })
            .where(and(eq(outboxJob.id, job.id), eq(outboxJob.lockedBy, this.id)))
            .returning({ id: outboxJob.id });
      if (!held.length) return;
      await tx
        .update(outbox)
        .set(
          outcome.ok
            ? {
                status: STATUS.sent,
                provider: outcome.provider,
                sentTime: now,
                attempts: job.attempts,
                nextAttemptTime: null,
                updateTime: now,
              }
            : {
                status: finished ? STATUS.failed : STATUS.queued,
                lastError: outcome.error.slice(0, 1000),
                attempts: job.attempts,
                nextAttemptTime: finished ? null : next,
                updateTime: now,
              },
        )
        .where(and(eq(outbox.id, job.id), eq(outbox.tenantId, job.tenantId)));
    });
  }
}
