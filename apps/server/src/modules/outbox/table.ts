import { index, integer, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { declareGlobal, tenantTable } from '../../db/schema/tables.ts';

/**
 * Every SMS and every email (docs/outbox.md): what was asked, what the recipient gets, and how its delivery went.
 * `status`: 1 queued, 2 sent, 3 failed.
 */
export const outbox = tenantTable(
  'outbox',
  {
    channel: varchar('channel', { length: 8 }).notNull(),
    recipient: varchar('recipient', { length: 255 }).notNull(),
    subject: varchar('subject', { length: 255 }),
    content: text('content'),
    html: text('html'),
    attachIds: varchar('attach_ids', { length: 2000 }),
    templateCode: varchar('template_code', { length: 64 }),
    params: text('params'),
    /** The configuration named by the sender; empty: the tenant's active one at delivery. */
    configId: idColumn('config_id'),
    /** What the message is about, for the module that queued it (e.g. a client's id). */
    refType: varchar('ref_type', { length: 32 }),
    refId: idColumn('ref_id'),
    attempts: smallint('attempts').notNull().default(0),
    nextAttemptTime: ts('next_attempt_time'),
    lastError: varchar('last_error', { length: 1000 }),
    sentTime: ts('sent_time'),
    provider: varchar('provider', { length: 32 }),
  },
  (t) => [
    index('outbox_list_idx').on(t.tenantId, t.createTime),
    index('outbox_ref_idx').on(t.tenantId, t.refType, t.refId),
  ],
);

declareGlobal(
  'outbox_job',
  "the delivery worker's schedule across tenants: ids, times and leases only, no message content",
);

/**
 * The worker's schedule: one row per message still to deliver, claimed with FOR UPDATE SKIP LOCKED and a lease.
 * The content stays in the tenant's `outbox` row, read under that tenant's row-level security (docs/outbox.md).
 */
export const outboxJob = pgTable(
  'outbox_job',
  {
    id: idColumn('id').primaryKey(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    dueAt: ts('due_at').notNull(),
    lockedUntil: ts('locked_until'),
    lockedBy: varchar('locked_by', { length: 64 }),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [index('outbox_job_due_idx').on(t.dueAt)],
);
