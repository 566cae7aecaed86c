import { sql } from 'drizzle-orm';
import { integer, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { tenantTable } from '../../db/schema/tables.ts';

/** A tenant's SMTP servers (docs/outbox.md); status 2 = the active one, at most one per tenant. */
export const smtpConfig = tenantTable(
  'smtp_config',
  {
    name: varchar('name', { length: 64 }).notNull(),
    host: varchar('host', { length: 255 }).notNull(),
    port: integer('port').notNull().default(465),
    tlsMode: smallint('tls_mode').notNull().default(3),
    username: varchar('username', { length: 255 }),
    /** The password, sealed with the server's key (modules/outbox/secrets.ts); never answered. */
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
