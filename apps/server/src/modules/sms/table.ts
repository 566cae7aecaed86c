import { sql } from 'drizzle-orm';
import { smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { tenantTable } from '../../db/schema/tables.ts';

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
    /** The secret key, sealed with the server's key (modules/outbox/secrets.ts); never answered. */
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
