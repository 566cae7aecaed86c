import { sql } from 'drizzle-orm';
import { index, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { tenantTable } from '../../db/schema/tables.ts';

/** One application and its decision (docs/clients.md "Approvals"). `status`: 0 pending, 1 approved, 2 rejected, 3 withdrawn. */
export const approvalTable = tenantTable(
  'approval',
  {
    referType: varchar('refer_type', { length: 20 }).notNull(),
    referId: idColumn('refer_id').notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    applicantName: varchar('applicant_name', { length: 50 }),
    applicantPhone: varchar('applicant_phone', { length: 20 }),
    regionCode: varchar('region_code', { length: 12 }),
    submitTime: ts('submit_time').notNull(),
    approverId: idColumn('approver_id'),
    approverName: varchar('approver_name', { length: 50 }),
    approveTime: ts('approve_time'),
    opinion: varchar('opinion', { length: 500 }),
    remark: varchar('remark', { length: 500 }),
  },
  (t) => [
    // At most one pending application per business object: two openings race to this constraint.
    uniqueIndex('approval_pending_uq')
      .on(t.tenantId, t.referType, t.referId)
      .where(sql`status = 0 and is_deleted = 0`),
    index('approval_refer_idx').on(t.tenantId, t.referType, t.referId, t.id),
    index('approval_status_idx').on(t.tenantId, t.status, t.id),
    index('approval_region_idx').on(t.tenantId, t.regionCode.op('varchar_pattern_ops'), t.id),
  ],
);
