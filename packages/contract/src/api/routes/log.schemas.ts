import { z } from 'zod';
import { idSchema } from '../../resource/schema.ts';
import { listQuery } from '../records.ts';
import type { RouteSchemas } from '../route.ts';

/**
 * The schemas of the log calls (addresses in log.ts; docs/server.md "Log viewers"). Lists take the usual paging and filters
 * (`listQuery`, checked by the server's list rules: an unknown filter or a bad value is a 400 naming it).
 */

const who = {
  userId: z.string().nullable(),
  /** The writer's account and name, when the user still exists. */
  account: z.string().nullable(),
  userName: z.string().nullable(),
};

export const auditRecord = z.object({
  id: z.string(),
  /** What was written: a resource code (`dept`, `clientinfo`…) or a business entity (`flow_model`, `login`…). */
  entity: z.string(),
  /** insert, update, delete, or the business action (approve, deploy, grant…). */
  action: z.string(),
  entityId: z.string().nullable(),
  ...who,
  requestId: z.string().nullable(),
  createTime: z.string(),
});

/** One changed field: its value before and after (null where absent). */
export const auditChange = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });

const page = <T extends z.ZodType>(record: T) =>
  z.object({
    records: z.array(record),
    total: z.number(),
    size: z.number(),
    current: z.number(),
    pages: z.number(),
    /** More rows match than the list counts and pages (`LOG_PAGE_LIMIT`): the total is that limit. */
    capped: z.boolean(),
  });

export const auditList = { query: listQuery, answer: page(auditRecord) } satisfies RouteSchemas;
export const auditDetail = {
  query: z.object({ id: idSchema() }),
  answer: auditRecord.extend({ before: z.unknown(), after: z.unknown(), changes: z.array(auditChange) }),
} satisfies RouteSchemas;

export const errorRecord = z.object({
  id: z.string(),
  type: z.string(),
  url: z.string().nullable(),
  message: z.string().nullable(),
  clientTime: z.string().nullable(),
  ...who,
  createTime: z.string(),
});

export const errorList = { query: listQuery, answer: page(errorRecord) } satisfies RouteSchemas;
export const errorDetail = {
  query: z.object({ id: idSchema() }),
  answer: errorRecord.extend({
    stack: z.string().nullable(),
    userAgent: z.string().nullable(),
    requestId: z.string().nullable(),
  }),
} satisfies RouteSchemas;
