import { and, eq, ne, sql } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { dictBiz, user } from '../../db/schema/index.ts';
import { leaveTypeSeed } from '../../db/seed-data/dicts.ts';
import { leaveProcessSeed } from '../../db/seed-data/leave.ts';
import { AppError, badRequest, type FieldError } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { readTenant, withTenant } from '../../platform/tenant-db.ts';
import {
  flowDefinition,
  flowTexts,
  historyOf,
  readableInstance,
  startInstanceIn,
  type FlowCaller,
  type FlowEffect,
} from '../flow/index.ts';
import { leaveDays, MAX_SPAN_MS, parseWallTime, type WallTime } from './days.ts';
import { leaveTexts as texts } from './messages.ts';
import { LEAVE_STATUS, LEAVE_STATUS_NAMES, processLeave } from './table.ts';

/**
 * The leave process's business side (docs/workflow.md "The leave process"): a request is filed with its instance in
 * one transaction (`startLeave`), read by its participants (`leaveDetail`), and kept in step with its instance by
 * the flow effect `leaveEffect` (a complete or a delete changes the row in the touch's own transaction).
 */

const ID = /^\d{1,19}$/;
const refuse = (field: string, text: { zh: string; en: string }) =>
  badRequest(text, [{ field, message: text }] satisfies FieldError[]);

/** The fields of a request as the form (or a resubmit's variables) gives them. */
export type LeaveFields = {
  category: unknown;
  startTime: unknown;
  endTime: unknown;
  reason: unknown;
  taskUser: unknown;
};
export type LeaveInput = LeaveFields & { processDefinitionId: string };

type Checked = { category: number; start: WallTime; end: WallTime; days: number; reason: string; taskUser: string };

/**
 * The rules of a request (400 naming the field): the times parse, the end is after the start and within a year, the
 * type is a key of the tenant's `leave_type` dictionary (`keep`: a type the row already holds stays allowed after it
 * left the dictionary), the reason is 1–500 characters, the approver is an active user of the tenant and not the
 * applicant. The days are computed (days.ts).
 */
async function checkLeave(
  tx: Db,
  tenantId: string,
  applicant: string,
  f: LeaveFields,
  keep?: number,
): Promise<Checked> {
  const start = parseWallTime(f.startTime, false);
  if (!start) throw refuse('startTime', texts.badStartTime);
  const end = parseWallTime(f.endTime, true);
  if (!end) throw refuse('endTime', texts.badEndTime);
  if (end.ms <= start.ms) throw refuse('endTime', texts.endBeforeStart);
  if (end.ms - start.ms > MAX_SPAN_MS) throw refuse('endTime', texts.tooLong);
  const key = String(f.category ?? '').trim();
  const badType = () => refuse('category', fill(texts.badCategory, { value: key.slice(0, 20) }));
  if (!/^\d{1,4}$/.test(key)) throw badType();
  const category = Number(key);
  if (category !== keep) {
    const [found] = await tx
      .select({ id: dictBiz.id })
      .from(dictBiz)
      .where(
        and(
          eq(dictBiz.tenantId, tenantId),
          eq(dictBiz.code, leaveTypeSeed.code),
          ne(dictBiz.parentId, '0'),
          eq(dictBiz.dictKey, String(category)),
          eq(dictBiz.isDeleted, 0),
        ),
      )
      .limit(1);
    if (!found) throw badType();
  }
  const reason = typeof f.reason === 'string' ? f.reason.trim() : '';
  if (!reason) throw refuse('reason', texts.reasonRequired);
  if (reason.length > 500) throw refuse('reason', texts.reasonTooLong);
  const taskUser = String(f.taskUser ?? '').trim();
  const approver =
    ID.test(taskUser) &&
    (
      await tx
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.id, taskUser), eq(user.tenantId, tenantId), eq(user.isDeleted, 0), eq(user.status, 1)))
        .limit(1)
    ).length > 0;
  if (!approver) throw refuse('taskUser', texts.badApprover);
  if (taskUser === applicant) throw refuse('taskUser', texts.selfApprover);
  return { category, start, end, days: leaveDays(start, end), reason, taskUser };
}

/** The process variables of a request: what the model's expressions and the handling screens read. */
const variablesOf = (c: Checked, applyUser: string) => ({
  applyUser,
  taskUser: c.taskUser,
  category: c.category,
  startTime: c.start.text,
  endTime: c.end.text,
  days: c.days,
  reason: c.reason,
});

/** A stored wall time as `yyyy-MM-dd HH:mm:ss` (the drivers answer a timestamp without zone as text). */
const wallText = (v: unknown) =>
  v instanceof Date ? v.toISOString().slice(0, 19).replace('T', ' ') : String(v).slice(0, 19).replace('T', ' ');

/** One request with the names of its approver and applicant, as the contract's `leaveRecord` answers it. */
async function leaveRecordOf(tx: Db, tenantId: string, id: string) {
  const [row] = await tx
    .select({
      leave: processLeave,
      taskUserName: sql<string | null>`(select coalesce(u.real_name, u.name) from "user" u
        where u.id = ${processLeave.taskUser} and u.tenant_id = ${processLeave.tenantId})`,
      applyUserName: sql<string | null>`(select coalesce(u.real_name, u.name) from "user" u
        where u.id = ${processLeave.applyUser} and u.tenant_id = ${processLeave.tenantId})`,
    })
    .from(processLeave)
    .where(and(eq(processLeave.id, id), eq(processLeave.tenantId, tenantId), eq(processLeave.isDeleted, 0)));
  if (!row) return null;
  const l = row.leave;
  const record = {
    id: l.id,
    processDefinitionId: l.definitionId,
    processInstanceId: l.instanceId,
    category: l.category,
    startTime: wallText(l.startTime),
    endTime: wallText(l.endTime),
    days: Number(l.days),
    reason: l.reason,
    taskUser: l.taskUser,
    taskUserName: row.taskUserName,
    applyUser: l.applyUser,
    applyUserName: row.applyUserName,
    applyTime: l.applyTime.toISOString(),
    status: LEAVE_STATUS_NAMES[l.status as keyof typeof LEAVE_STATUS_NAMES] ?? 'running',
  };
  return { record, row: l };
}

/**
 * Files a leave request and starts its process in one transaction: the definition must be a `leave` one of the
 * caller's tenant (404 / 400), the fields pass `checkLeave`, the instance starts with the request's variables and the
 * request's id as business key, and the row is written. Anything refused leaves neither row nor instance.
 */
export async function startLeave(s: Pick<Services, 'db' | 'now'>, ctx: FlowCaller, input: LeaveInput) {
  return withTenant(s.db, ctx.tenantId, async (tx) => {
    const defId = String(input.processDefinitionId ?? '');
    const [def] = ID.test(defId)
      ? await tx
          .select({ id: flowDefinition.id, key: flowDefinition.defKey })
          .from(flowDefinition)
          .where(
            and(
              eq(flowDefinition.id, defId),
              eq(flowDefinition.tenantId, ctx.tenantId),
              eq(flowDefinition.isDeleted, 0),
            ),
          )
      : [];
    if (!def) throw new AppError(404, flowTexts.definitionMissing);
    if (def.key !== leaveProcessSeed.key) throw refuse('processDefinitionId', texts.notLeaveProcess);
    const checked = await checkLeave(tx, ctx.tenantId, ctx.userId, input);
    const id = newId();
    const started = await startInstanceIn(tx, s, ctx, {
      definitionId: def.id,
      businessKey: id,
      variables: variablesOf(checked, ctx.userId),
    });
    const now = s.now();
    await tx.insert(processLeave).values({
      id,
      tenantId: ctx.tenantId,
      definitionId: def.id,
      instanceId: started.instanceId,
      category: checked.category,
      startTime: checked.start.text,
      endTime: checked.end.text,
      days: String(checked.days),
      reason: checked.reason,
      taskUser: checked.taskUser,
      applyUser: ctx.userId,
      applyTime: now,
      status: started.ended ? LEAVE_STATUS.passed : LEAVE_STATUS.running,
      createUser: ctx.userId,
      createTime: now,
      updateUser: ctx.userId,
      updateTime: now,
    });
    return (await leaveRecordOf(tx, ctx.tenantId, id))!.record;
  });
}

/**
 * A request with its instance's history, for its participants — the applicant, the approver named on it, anyone
 * who was assigned or completed one of its tasks or may claim an open one — and holders of the `follow` menu
 * (流程跟踪). Anyone else, and another tenant, gets the 404 of a missing request.
 */
export async function leaveDetail(s: Services, ctx: FlowCaller, businessId: string) {
  if (!ID.test(String(businessId))) throw new AppError(404, texts.leaveMissing);
  // Read before the transaction (each opens its own; PGlite has one connection).
  const follow = (await s.permissionCodes(ctx.tenantId, ctx.roleIds)).has('follow');
  return readTenant(s.db, ctx.tenantId, async (tx) => {
    const found = await leaveRecordOf(tx, ctx.tenantId, String(businessId));
    if (!found) throw new AppError(404, texts.leaveMissing);
    const { record, row: l } = found;
    // Who may read it is who may read its instance (docs/workflow.md "My work and an instance's pages").
    await readableInstance(tx, ctx, l.instanceId, follow || l.taskUser === ctx.userId).catch((e: unknown) => {
      throw e instanceof AppError && e.status === 404 ? new AppError(404, texts.leaveMissing) : e;
    });
    return { ...record, history: await historyOf(tx, ctx.tenantId, l.instanceId) };
  });
}

/** The request of an instance, locked for the touch (none: an instance started without one). */
async function lockLeave(tx: Db, tenantId: string, instanceId: string) {
  const [row] = await tx
    .select()
    .from(processLeave)
    .where(
      and(eq(processLeave.tenantId, tenantId), eq(processLeave.instanceId, instanceId), eq(processLeave.isDeleted, 0)),
    )
    .for('update');
  return row;
}

async function setLeave(tx: Db, ctx: FlowCaller, id: string, values: Partial<typeof processLeave.$inferInsert>) {
  await tx
    .update(processLeave)
    .set({ ...values, updateUser: ctx.userId, updateTime: new Date(), version: sql`${processLeave.version} + 1` })
    .where(and(eq(processLeave.id, id), eq(processLeave.tenantId, ctx.tenantId)));
}

/**
 * What the touches of a leave instance do to its request (registered for the key `leave`, flow's
 * `registerFlowEffect`), in the touch's transaction:
 * - before a complete: at the applicant's 调整申请 passed (a resubmit), the fields the variables adjust (category,
 *   startTime, endTime, reason, taskUser) are checked like a new request's and written with the days recomputed (a
 *   bad one: 400, nothing changes); at any other step the request's own values replace whatever the variables say,
 *   so no approver rewrites the applicant, the approver or the days. The instance runs with these values.
 * - after a complete: the status — passed (ended after a pass), cancelled (ended after the applicant's reject),
 *   rejected (waiting at 调整申请), else running.
 * - after a delete: cancelled.
 */
export const leaveEffect: FlowEffect = {
  async beforeComplete(tx, ctx, e) {
    const row = await lockLeave(tx, ctx.tenantId, e.instance.id);
    if (!row) return;
    const stored: LeaveFields = {
      category: row.category,
      startTime: wallText(row.startTime),
      endTime: wallText(row.endTime),
      reason: row.reason,
      taskUser: row.taskUser,
    };
    if (e.task.elementId !== leaveProcessSeed.adjustTask || !e.pass)
      return { ...stored, applyUser: row.applyUser, days: Number(row.days) };
    const given = e.given as Partial<LeaveFields>;
    const pick = (k: keyof LeaveFields) => (given[k] === undefined || given[k] === null ? stored[k] : given[k]);
    const fields: LeaveFields = {
      category: pick('category'),
      startTime: pick('startTime'),
      endTime: pick('endTime'),
      reason: pick('reason'),
      taskUser: pick('taskUser'),
    };
    const c = await checkLeave(tx, ctx.tenantId, row.applyUser, fields, row.category);
    await setLeave(tx, ctx, row.id, {
      category: c.category,
      startTime: c.start.text,
      endTime: c.end.text,
      days: String(c.days),
      reason: c.reason,
      taskUser: c.taskUser,
    });
    return variablesOf(c, row.applyUser);
  },
  async afterComplete(tx, ctx, e) {
    const adjust = e.tasks.some((t) => t.elementId === leaveProcessSeed.adjustTask);
    const status = e.ended
      ? e.pass
        ? LEAVE_STATUS.passed
        : LEAVE_STATUS.cancelled
      : adjust
        ? LEAVE_STATUS.rejected
        : LEAVE_STATUS.running;
    // One statement (the request is locked since beforeComplete): written only when its status changes.
    await tx
      .update(processLeave)
      .set({ status, updateUser: ctx.userId, updateTime: new Date(), version: sql`${processLeave.version} + 1` })
      .where(
        and(
          eq(processLeave.tenantId, ctx.tenantId),
          eq(processLeave.instanceId, e.instance.id),
          eq(processLeave.isDeleted, 0),
          ne(processLeave.status, status),
        ),
      );
  },
  async afterDelete(tx, ctx, e) {
    const row = await lockLeave(tx, ctx.tenantId, e.instance.id);
    if (row) await setLeave(tx, ctx, row.id, { status: LEAVE_STATUS.cancelled });
  },
};
