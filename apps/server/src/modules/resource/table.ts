import { sql } from 'drizzle-orm';
import { integer, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { tenantTable } from '../../db/schema/tables.ts';

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
