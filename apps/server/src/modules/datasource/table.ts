import { sql } from 'drizzle-orm';
import { text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { globalTable } from '../../db/schema/tables.ts';

/** The PostgreSQL databases tenants may be moved to (docs/tenants.md "Data sources"): the platform's own records. */
export const datasource = globalTable(
  'datasource',
  "the platform's records of the databases tenants may live in; kept on the main database, read before any tenant",
  {
    name: varchar('name', { length: 64 }).notNull(),
    url: varchar('url', { length: 512 }).notNull(),
    username: varchar('username', { length: 63 }).notNull(),
    /** AES-GCM under a key derived from the signing key (platform/secrets.ts); never answered. */
    passwordSealed: text('password_sealed'),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [
    uniqueIndex('datasource_name_uq')
      .on(t.name)
      .where(sql`is_deleted = 0`),
  ],
);
