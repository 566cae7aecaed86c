import { sql } from 'drizzle-orm';
import { index, integer, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { declareGlobal, pgTable, tenantTable } from '../../db/schema/tables.ts';

/**
 * A tenant's storage configurations (docs/system-api.md "Files"); status 2 = the one uploads go through, at most one
 * per tenant. Without one, uploads go to the server's own disk.
 */
export const ossConfig = tenantTable(
  'oss_config',
  {
    ossCode: varchar('oss_code', { length: 64 }).notNull(),
    category: smallint('category').notNull().default(1),
    endpoint: varchar('endpoint', { length: 255 }),
    bucketName: varchar('bucket_name', { length: 63 }),
    region: varchar('region', { length: 64 }),
    accessKey: varchar('access_key', { length: 128 }),
    /** The secret key, sealed with the server's key (platform/secrets.ts); never answered. */
    secretKeySealed: text('secret_key_sealed'),
    maxSizeKb: integer('max_size_kb').notNull().default(10240),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [
    uniqueIndex('oss_config_code_uq')
      .on(t.tenantId, t.ossCode)
      .where(sql`is_deleted = 0`),
    uniqueIndex('oss_config_active_uq')
      .on(t.tenantId)
      .where(sql`status = 2 and is_deleted = 0`),
  ],
);

/**
 * Stored objects of removed attachments still to be deleted (docs/system-api.md "Files"): queued in the removal's
 * transaction, deleted right after it commits, and retried with backoff by the removal worker (removals.ts) while the
 * store fails — claimed FOR UPDATE SKIP LOCKED with a lease, so several servers share the work. The object's
 * configuration is read under its tenant's row-level security when it is removed.
 */
export const attachRemoval = pgTable(
  'attach_removal',
  {
    id: idColumn('id').primaryKey(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    attachId: idColumn('attach_id').notNull(),
    /** The configuration the object was stored through (null: the server's disk). */
    ossId: idColumn('oss_id'),
    objectKey: varchar('object_key', { length: 500 }).notNull(),
    dueAt: ts('due_at').notNull(),
    lockedUntil: ts('locked_until'),
    lockedBy: varchar('locked_by', { length: 64 }),
    attempts: integer('attempts').notNull().default(0),
    /** The store's last refusal, in English as a log line would be. */
    lastError: varchar('last_error', { length: 500 }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('attach_removal_due_idx').on(t.dueAt), index('attach_removal_attach_idx').on(t.attachId)],
);

declareGlobal('attach_removal', "the removal worker's queue across tenants: object keys and leases, no content");
