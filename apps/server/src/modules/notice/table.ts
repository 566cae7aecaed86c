import { sql } from 'drizzle-orm';
import { index, primaryKey, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { tenantLinkTable, tenantTable } from '../../db/schema/tables.ts';

/**
 * 通知公告 (docs/notices.md). `status`: 1 draft, 2 published. `content` is HTML as the sanitiser left it
 * (sanitise.ts): it is never stored as sent.
 */
export const notice = tenantTable(
  'notice',
  {
    title: varchar('title', { length: 128 }).notNull(),
    category: smallint('category').notNull(),
    releaseTime: ts('release_time').notNull(),
    content: text('content').notNull().default(''),
  },
  (t) => [
    // The bell and the read view: the tenant's published notices, newest release first.
    index('notice_release_idx')
      .on(t.tenantId, t.releaseTime)
      .where(sql`status = 2 and is_deleted = 0`),
  ],
);

/** Per user: when they last opened the bell; what happened after it is unread (docs/notices.md "Unread"). */
export const noticeSeen = tenantLinkTable(
  'notice_seen',
  {
    userId: idColumn('user_id').notNull(),
    seenUpTo: ts('seen_up_to').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] })],
);
