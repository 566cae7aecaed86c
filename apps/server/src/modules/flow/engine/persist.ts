import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import type { Db } from '../../../db/client.ts';
import { newId } from '../../../db/ids.ts';
import { user } from '../../../db/schema/index.ts';
import { AppError } from '../../../platform/errors.ts';
import { flowTexts as texts } from '../messages.ts';
import { flowHistory, flowInstance, flowTask, flowTimer, INSTANCE, TASK, type CurrentStep } from '../table.ts';
import { evaluate, ExpressionError } from './expressions.ts';
import type { RunResult, Waiting, WaitingTimer } from './run.ts';

/**
 * What a touch writes besides the engine's state (docs/workflow.md "The engine"): a task row for each user task that
 * began waiting, history rows for the activities passed, the tasks that stopped waiting without a complete
 * cancelled, and the instance's state, variables, current steps, status and version — all in the touch's transaction.
 */

export type InstanceKey = { id: string; tenantId: string; definitionId: string };

/** A new task as the touch answers it. */
export type NewTask = {
  id: string;
  elementId: string;
  name: string | null;
  assigneeId: string | null;
  candidateRoles: string[];
};

/** The handler of a user task: its assignee (a user of the tenant) or its candidate roles; neither → 400. */
async function handlerOf(tx: Db, tenantId: string, w: Waiting, variables: Record<string, unknown>) {
  const element = w.name || w.id;
  const value = (text: string | null) => {
    if (!text) return null;
    try {
      return evaluate(text, variables);
    } catch (e) {
      if (e instanceof ExpressionError)
        throw new AppError(400, {
          zh: fill(texts.elementFailed, { element, detail: e.reason.zh }).zh,
          en: fill(texts.elementFailed, { element, detail: e.reason.en }).en,
        });
      throw e;
    }
  };
  const a = value(w.assignee);
  let assigneeId: string | null = null;
  if (a !== null && a !== undefined && a !== '') {
    const text = String(a).trim();
    const found =
      /^\d{1,19}$/.test(text) &&
      (
        await tx
          .select({ id: user.id })
          .from(user)
          .where(and(eq(user.id, text), eq(user.tenantId, tenantId), eq(user.isDeleted, 0)))
          .limit(1)
      ).length > 0;
    if (!found) throw new AppError(400, fill(texts.badAssignee, { element, value: text.slice(0, 64) }));
    assigneeId = text;
  }
  const groups = value(w.candidateGroups);
  const candidateRoles = [
    ...new Set(
      String(groups ?? '')
        .split(',')
        .map((g) => g.trim().slice(0, 255))
        .filter(Boolean),
    ),
  ];
  if (!assigneeId && !candidateRoles.length) throw new AppError(400, fill(texts.noHandler, { element }));
  return { assigneeId, candidateRoles };
}

/** The signaled task of a complete, written with the touch. */
export type Completed = {
  taskId: string;
  executionId: string;
  userId: string;
  outcome: 'pass' | 'reject';
  comment: string | null;
};

/**
 * Writes that answer nothing, sent as one statement: each but the last a data-modifying `WITH` part. PostgreSQL runs
 * every part on the statement's one snapshot (none sees another's rows) and checks the foreign keys at its end; the
 * parts of a touch touch distinct rows, so the result is that of the statements one after another, for one round trip
 * and one statement to render and send instead of up to seven.
 */
type Write = { getSQL(): SQL };
async function writeTogether(tx: Db, writes: Write[]) {
  if (!writes.length) return;
  const last = writes[writes.length - 1].getSQL();
  if (writes.length === 1) return void (await tx.execute(last));
  const parts = writes.slice(0, -1).map((w, i) => sql`${sql.raw(`w${i}`)} as (${w.getSQL()})`);
  await tx.execute(sql`with ${sql.join(parts, sql`, `)} ${last}`);
}

/**
 * Writes a run: new tasks and their history, the history of the activities passed, the tasks no longer waiting
 * cancelled, the instance row. `isNew`: the instance row is inserted (a start), else updated with its version + 1.
 * The open tasks before the touch are the user tasks waiting in the stored state (`run.waitingBefore`): each touch
 * writes the task rows with the state, in one transaction, so the two never differ.
 */
export async function writeRun(
  tx: Db,
  inst: InstanceKey & { starterId: string; businessKey: string | null },
  run: RunResult,
  variables: Record<string, unknown>,
  now: Date,
  opts: { isNew: boolean; completed?: Completed; hasTimers?: boolean },
): Promise<NewTask[]> {
  // The steps it waits at: a boundary event waits with its activity and is not a step of its own.
  const current: CurrentStep[] = run.waiting
    .filter((w) => w.type !== 'bpmn:BoundaryEvent')
    .map((w) => ({ id: w.id, name: w.name }));
  const row = {
    state: run.state,
    variables,
    current,
    status: run.ended ? INSTANCE.ended : INSTANCE.running,
    endTime: run.ended ? now : null,
    updateTime: now,
  };
  const writes: Write[] = [];
  if (opts.isNew)
    writes.push(
      tx.insert(flowInstance).values({
        ...row,
        id: inst.id,
        tenantId: inst.tenantId,
        definitionId: inst.definitionId,
        businessKey: inst.businessKey,
        starterId: inst.starterId,
        startTime: now,
        createUser: inst.starterId,
        createTime: now,
      }),
    );
  else
    writes.push(
      tx
        .update(flowInstance)
        .set({ ...row, version: sql`${flowInstance.version} + 1` })
        .where(and(eq(flowInstance.id, inst.id), eq(flowInstance.tenantId, inst.tenantId))),
    );

  if (opts.completed) writes.push(...closeCompleted(tx, inst, opts.completed, now));
  const signaled = opts.completed?.executionId ?? null;
  const openExecutions = new Set(run.waitingBefore.filter((e) => e !== signaled));
  const waitingNow = new Set(run.waiting.map((w) => w.executionId));
  const gone = [...openExecutions].filter((e) => !waitingNow.has(e));
  if (gone.length) writes.push(...cancelExecutions(tx, inst, gone, now));

  const created: NewTask[] = [];
  const taskOf = new Map<string, NewTask>();
  const taskRows: (typeof flowTask.$inferInsert)[] = [];
  for (const w of run.waiting) {
    if (w.type !== 'bpmn:UserTask' || openExecutions.has(w.executionId)) continue;
    const h = await handlerOf(tx, inst.tenantId, w, variables);
    const task: NewTask = { id: newId(), elementId: w.id, name: w.name, ...h };
    taskRows.push({
      id: task.id,
      tenantId: inst.tenantId,
      instanceId: inst.id,
      definitionId: inst.definitionId,
      elementId: w.id,
      executionId: w.executionId,
      name: w.name?.slice(0, 255) ?? null,
      assigneeId: task.assigneeId,
      candidateRoles: task.candidateRoles,
      formKey: w.formKey?.slice(0, 255) ?? null,
      status: TASK.open,
      createUser: opts.completed?.userId ?? inst.starterId,
      createTime: now,
      updateTime: now,
    });
    created.push(task);
    taskOf.set(w.executionId, task);
  }
  if (taskRows.length) writes.push(tx.insert(flowTask).values(taskRows));
  writes.push(...historyWrites(tx, inst, run, taskOf, signaled, now));
  await writeTogether(tx, writes);
  // A model without timers has no timer rows to read or replace (`ParsedModel.hasTimers`).
  if (opts.hasTimers !== false) await writeTimers(tx, inst, run.ended ? [] : run.timers, opts.isNew);
  return created;
}

/** The completed task: done with its outcome; its history row ended with the assignee, outcome and comment. */
function closeCompleted(tx: Db, inst: InstanceKey, c: Completed, now: Date): Write[] {
  return [
    tx
      .update(flowTask)
      .set({
        status: TASK.done,
        completeTime: now,
        completedBy: c.userId,
        outcome: c.outcome,
        comment: c.comment,
        updateUser: c.userId,
        updateTime: now,
        version: sql`${flowTask.version} + 1`,
      })
      .where(and(eq(flowTask.id, c.taskId), eq(flowTask.tenantId, inst.tenantId))),
    tx
      .update(flowHistory)
      .set({ endTime: now, assigneeId: c.userId, outcome: c.outcome, comment: c.comment, updateTime: now })
      .where(
        // Found through the instance's index (tenant, instance, …), then by task: there is no index on the task id.
        and(
          eq(flowHistory.tenantId, inst.tenantId),
          eq(flowHistory.instanceId, inst.id),
          eq(flowHistory.taskId, c.taskId),
          isNull(flowHistory.endTime),
        ),
      ),
  ];
}

/** The open tasks of these executions cancelled, with their open history rows (a path was cut). */
function cancelExecutions(tx: Db, inst: InstanceKey, executionIds: string[], now: Date): Write[] {
  const ofInstance = and(
    eq(flowTask.tenantId, inst.tenantId),
    eq(flowTask.instanceId, inst.id),
    inArray(flowTask.executionId, executionIds),
    eq(flowTask.status, TASK.open),
  );
  return [
    tx
      .update(flowTask)
      .set({ status: TASK.cancelled, updateTime: now, version: sql`${flowTask.version} + 1` })
      .where(ofInstance),
    tx
      .update(flowHistory)
      .set({ endTime: now, outcome: 'cancelled', comment: null, updateTime: now })
      .where(
        and(
          eq(flowHistory.tenantId, inst.tenantId),
          eq(flowHistory.instanceId, inst.id),
          inArray(flowHistory.taskId, tx.select({ id: flowTask.id }).from(flowTask).where(ofInstance)),
          isNull(flowHistory.endTime),
        ),
      ),
  ];
}

/** Tasks that stopped waiting without a complete (the instance ended or was deleted, a path was cut). */
export async function cancelTasks(tx: Db, inst: InstanceKey, ids: string[], now: Date, comment: string | null = null) {
  if (!ids.length) return;
  await tx
    .update(flowTask)
    .set({ status: TASK.cancelled, updateTime: now, version: sql`${flowTask.version} + 1` })
    .where(and(eq(flowTask.tenantId, inst.tenantId), inArray(flowTask.id, ids)));
  await tx
    .update(flowHistory)
    .set({ endTime: now, outcome: 'cancelled', comment, updateTime: now })
    .where(
      and(
        eq(flowHistory.tenantId, inst.tenantId),
        eq(flowHistory.instanceId, inst.id),
        inArray(flowHistory.taskId, ids),
        isNull(flowHistory.endTime),
      ),
    );
}

/**
 * History rows of the activities the run passed: one per activity started in it (ended, or still waiting); an
 * activity that was waiting before and ended now (other than the completed task, closed above) gets its end time.
 */
function historyWrites(
  tx: Db,
  inst: InstanceKey,
  run: RunResult,
  taskOf: Map<string, NewTask>,
  signaled: string | null,
  now: Date,
): Write[] {
  const rows = new Map<string, typeof flowHistory.$inferInsert>();
  const endedBefore: string[] = [];
  for (const p of run.passed) {
    const row = rows.get(p.executionId);
    if (p.event === 'start' && !row) {
      const task = taskOf.get(p.executionId);
      rows.set(p.executionId, {
        id: newId(),
        tenantId: inst.tenantId,
        instanceId: inst.id,
        elementId: p.id.slice(0, 255),
        elementType: p.type.slice(0, 64),
        name: p.name?.slice(0, 255) ?? null,
        taskId: task?.id ?? null,
        assigneeId: task?.assigneeId ?? null,
        startTime: now,
        createTime: now,
        updateTime: now,
      });
    } else if (p.event === 'end') {
      if (row) row.endTime = now;
      else if (p.executionId !== signaled) endedBefore.push(p.id);
    }
  }
  const writes: Write[] = [];
  if (rows.size) writes.push(tx.insert(flowHistory).values([...rows.values()]));
  if (endedBefore.length)
    writes.push(
      tx
        .update(flowHistory)
        .set({ endTime: now, updateTime: now })
        .where(
          and(
            eq(flowHistory.tenantId, inst.tenantId),
            eq(flowHistory.instanceId, inst.id),
            inArray(flowHistory.elementId, endedBefore),
            isNull(flowHistory.endTime),
          ),
        ),
    );
  return writes;
}

/**
 * The instance's waiting timers (docs/workflow.md "Timers"), replaced by the run's: the timer worker resumes the
 * instance when the first falls due. A timer the run kept keeps its row (and a claim on it) untouched.
 */
export async function writeTimers(tx: Db, inst: InstanceKey, timers: WaitingTimer[], isNew: boolean) {
  const existing = isNew
    ? []
    : await tx
        .select({ id: flowTimer.id, executionId: flowTimer.executionId })
        .from(flowTimer)
        .where(and(eq(flowTimer.tenantId, inst.tenantId), eq(flowTimer.instanceId, inst.id)));
  const keep = new Set(timers.map((t) => t.executionId));
  const gone = existing.filter((e) => !keep.has(e.executionId)).map((e) => e.id);
  if (gone.length) await tx.delete(flowTimer).where(inArray(flowTimer.id, gone));
  const have = new Set(existing.map((e) => e.executionId));
  const fresh = timers.filter((t) => !have.has(t.executionId));
  if (fresh.length)
    await tx.insert(flowTimer).values(
      fresh.map((t) => ({
        id: newId(),
        tenantId: inst.tenantId,
        instanceId: inst.id,
        elementId: t.elementId.slice(0, 255),
        executionId: t.executionId.slice(0, 255),
        dueAt: t.dueAt,
      })),
    );
}
