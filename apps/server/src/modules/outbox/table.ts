import { sql } from 'drizzle-orm';
import { index, integer, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { declareGlobal, pgTable, tenantTable } from '../../db/schema/tables.ts';

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

// The delivery settings the worker reads; the sms and smtp modules are their screens (docs/server.md "Module boundaries").
/** A tenant's SMS configurations (docs/outbox.md); status 2 = the active one, at most one per tenant. */
export const smsConfig = tenantTable(
  'sms_config',
  {
    smsCode: varchar('sms_code', { length: 64 }).notNull(),
    category: smallint('category').notNull().default(1),
    templateId: varchar('template_id', { length: 64 }),
    content: varchar('content', { length: 500 }),
    signName: varchar('sign_name', { length: 64 }),
    accessKey: varchar('access_key', { length: 128 }),
    /** The secret key, sealed with the server's key (platform/secrets.ts); never answered. */
    secretKeySealed: text('secret_key_sealed'),
    appId: varchar('app_id', { length: 64 }),
    region: varchar('region', { length: 64 }),
    endpoint: varchar('endpoint', { length: 500 }),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [
    uniqueIndex('sms_config_code_uq')
      .on(t.tenantId, t.smsCode)
      .where(sql`is_deleted = 0`),
    uniqueIndex('sms_config_active_uq')
      .on(t.tenantId)
      .where(sql`status = 2 and is_deleted = 0`),
  ],
);

/** A tenant's SMTP servers (docs/outbox.md); status 2 = the active one, at most one per tenant. */
export const smtpConfig = tenantTable(
  'smtp_config',
  {
    name: varchar('name', { length: 64 }).notNull(),
    host: varchar('host', { length: 255 }).notNull(),
    port: integer('port').notNull().default(465),
    tlsMode: smallint('tls_mode').notNull().default(3),
    username: varchar('username', { length: 255 }),
    /** The password, sealed with the server's key (platform/secrets.ts); never answered. */
    passwordSealed: text('password_sealed'),
    fromAddress: varchar('from_address', { length: 255 }).notNull(),
    fromName: varchar('from_name', { length: 64 }),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [
    uniqueIndex('smtp_config_name_uq')
      .on(t.tenantId, t.name)
      .where(sql`is_deleted = 0`),
    uniqueIndex('smtp_config_active_uq')
      .on(t.tenantId)
      .where(sql`status = 2 and is_deleted = 0`),
  ],
);
