import { sql } from 'drizzle-orm';
import { index, smallint, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema/columns.ts';
import { tenantTable } from '../../db/schema/tables.ts';

export const blackInfo = tenantTable(
  'black_info',
  {
    type: smallint('type').notNull(),
    value: varchar('value', { length: 255 }).notNull(),
    reason: varchar('reason', { length: 255 }),
    expireTime: ts('expire_time'),
  },
  (t) => [
    uniqueIndex('black_info_value_uq')
      .on(t.tenantId, t.type, t.value)
      .where(sql`is_deleted = 0`),
    index('black_info_lookup_idx').on(t.type, t.value),
  ],
);
