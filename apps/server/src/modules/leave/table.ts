import { index, integer, numeric, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { tenantTable } from '../../db/schema/tables.ts';
import { flowDefinition, flowInstance } from '../flow/table.ts';

/**
 * `process_leave.status` (the audit column): running (at an approver), passed (HR passed: the instance ended),
 * rejected (back at the applicant's 调整申请), cancelled (the applicant cancelled, or a tracker deleted the instance).
 */
export const LEAVE_STATUS = { running: 1, passed: 2, rejected: 3, cancelled: 4 } as const;
export const LEAVE_STATUS_NAMES = { 1: 'running', 2: 'passed', 3: 'rejected', 4: 'cancelled' } as const;

/**
 * A leave request (docs/workflow.md "The leave process"): the business row of one instance of the process `leave`,
 * its id the instance's business key. Start and end are the applicant's wall-clock times (no time zone: a leave from
 * 09:00 is from 09:00 wherever the server runs); `days` is computed by the server (half-day steps).
 */
export const processLeave = tenantTable(
  'process_leave',
  {
    definitionId: idColumn('definition_id')
      .notNull()
      .references(() => flowDefinition.id),
    instanceId: idColumn('instance_id')
      .notNull()
      .references(() => flowInstance.id),
    /** The key of the tenant's business dictionary `leave_type`. */
    category: integer('category').notNull(),
    startTime: timestamp('start_time', { mode: 'string' }).notNull(),
    endTime: timestamp('end_time', { mode: 'string' }).notNull(),
    days: numeric('days', { precision: 6, scale: 1 }).notNull(),
    reason: varchar('reason', { length: 500 }).notNull(),
    /** The approver picked on the form (the first task's assignee). */
    taskUser: idColumn('task_user').notNull(),
    applyUser: idColumn('apply_user').notNull(),
    applyTime: ts('apply_time').notNull(),
  },
  (t) => [
    uniqueIndex('process_leave_instance_uq').on(t.tenantId, t.instanceId),
    index('process_leave_apply_user_idx').on(t.tenantId, t.applyUser, t.id),
  ],
);
