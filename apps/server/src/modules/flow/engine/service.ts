import { and, eq, isNull, sql } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import type { Db } from '../../../db/client.ts';
import { newId } from '../../../db/ids.ts';
import { AppError, badRequest } from '../../../platform/errors.ts';
import type { Services } from '../../../platform/services.ts';
import { withTenant } from '../../../platform/tenant-db.ts';
import type { AuthContext } from '../../../platform/tokens.ts';
import { effectInstance, flowEffectOf, type CompleteEvent } from '../effects.ts';
import { flowTexts as texts } from '../messages.ts';
import { aliasesOf } from '../roles.ts';
import { flowDefinition, flowHistory, flowInstance, flowTask, flowTimer, INSTANCE, TASK } from '../table.ts';
import { parsedDefinition } from './definitions.ts';
import { endInstance } from './end.ts';
import { writeRun, type NewTask } from './persist.ts';
import { runTouchPooled as runTouch } from './pool.ts';

/**
 * The engine's touches (docs/workflow.md "The engine"): start, claim, complete, delete. Each is one transaction of
 * the caller's tenant that locks the instance row, rebuilds bpmn-engine from the stored state, applies the step, runs
 * until every path waits and writes the state with the task and history rows it changed. No engine is kept between
 * calls, so a restart (even kill -9) loses nothing acknowledged and finds every instance where its last commit left it.
 */

/** `registry`: the app's business effects (`registerFlowEffect`); services without one apply none. */
export type FlowServices = Pick<Services, 'db' | 'now'> & { registry?: Services['registry'] };
export type FlowCaller = Pick<AuthContext, 'tenantId' | 'userId' | 'roleIds'>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const VARIABLES_MAX_BYTES = 32 * 1024;

/** Process variables from a caller: a plain object of at most 100 JSON values named like identifiers. */
export function checkVariables(v: unknown): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  const bad = (detail: string) => badRequest(fill(texts.badVariables, { detail }));
  if (typeof v !== 'object' || Array.isArray(v)) throw bad('not an object');
  const keys = Object.keys(v);
  if (keys.length > 100) throw bad('more than 100 variables');
  for (const k of keys) if (!NAME.test(k) || FORBIDDEN.has(k)) throw bad(`"${k.slice(0, 64)}" is not a variable name`);
  let json: string;
  try {
    json = JSON.stringify(v);
  } catch {
    throw bad('not JSON');
  }
  if (Buffer.byteLength(json) > VARIABLES_MAX_BYTES) throw bad(`larger than ${VARIABLES_MAX_BYTES} bytes`);
  return JSON.parse(json) as Record<string, unknown>;
}

async function definitionOf(tx: Db, tenantId: string, definitionId: string) {
  if (!/^\d{1,19}$/.test(String(definitionId))) throw new AppError(404, texts.definitionMissing);
  const [def] = await tx
    .select({ id: flowDefinition.id, suspended: flowDefinition.suspended, key: flowDefinition.defKey })
    .from(flowDefinition)
    .where(
      and(eq(flowDefinition.id, definitionId), eq(flowDefinition.tenantId, tenantId), eq(flowDefinition.isDeleted, 0)),
    )
    // Shared: a suspension (an update of the row) waits for the touches in flight and the touches after it see it,
    // so a complete racing a suspend is either done before it or refused (409), never half of each.
    .for('share');
  if (!def) throw new AppError(404, texts.definitionMissing);
  return { ...def, model: () => modelOf(tx, def.id) };
}

/** The parsed model of a definition (kept per definition id; its XML is read the first time only). */
function modelOf(tx: Db, definitionId: string) {
  return parsedDefinition(definitionId, async () => {
    const [row] = await tx
      .select({ xml: flowDefinition.xml })
      .from(flowDefinition)
      .where(eq(flowDefinition.id, definitionId));
    return row.xml;
  });
}

export type StartInput = { definitionId: string; businessKey?: string | null; variables?: unknown };

/**
 * Starts an instance of a definition that is not suspended. The variables get `applyUser` (the starter's user id)
 * unless they name it. Answers the instance and the tasks waiting.
 */
export function startInstance(s: FlowServices, ctx: FlowCaller, input: StartInput) {
  return withTenant(s.db, ctx.tenantId, (tx) => startInstanceIn(tx, s, ctx, input));
}

/**
 * `startInstance` inside the caller's transaction of `ctx.tenantId`: a business row and its instance written
 * together (the leave module), so a refusal of either leaves neither.
 */
export async function startInstanceIn(tx: Db, s: Pick<FlowServices, 'now'>, ctx: FlowCaller, input: StartInput) {
  const variables = { applyUser: ctx.userId, ...checkVariables(input.variables) };
  const businessKey = input.businessKey == null ? null : String(input.businessKey).slice(0, 64);
  const def = await definitionOf(tx, ctx.tenantId, input.definitionId);
  if (def.suspended) throw new AppError(409, texts.suspended);
  const model = await def.model();
  const run = await runTouch({ model, definitionId: def.id, state: null, variables });
  const id = newId();
  const inst = { id, tenantId: ctx.tenantId, definitionId: def.id, starterId: ctx.userId, businessKey };
  const tasks = await writeRun(tx, inst, run, variables, s.now(), { isNew: true, hasTimers: model.hasTimers });
  return { instanceId: id, ended: run.ended, tasks };
}

/** The definition row, share-locked (removed or not): a suspension or a deletion waits for the touch, or it for them. */
async function shareDefinition(tx: Db, tenantId: string, definitionId: string) {
  await tx
    .select({ id: flowDefinition.id })
    .from(flowDefinition)
    .where(and(eq(flowDefinition.id, definitionId), eq(flowDefinition.tenantId, tenantId)))
    .for('share');
}

/** The instance row, locked for the touch (404 when missing or another tenant's). */
async function lockInstance(tx: Db, tenantId: string, instanceId: string) {
  if (!/^\d{1,19}$/.test(String(instanceId))) throw new AppError(404, texts.instanceMissing);
  const [inst] = await tx
    .select()
    .from(flowInstance)
    .where(and(eq(flowInstance.id, instanceId), eq(flowInstance.tenantId, tenantId)))
    .for('update');
  if (!inst) throw new AppError(404, texts.instanceMissing);
  return inst;
}

/**
 * A task's instance and definition with what a complete needs of the definition, the definition row share-locked
 * (removed or not): a suspension or a deletion waits for the touch, or the touch for it (404 when the task is missing).
 */
async function taskWithDefinition(tx: Db, tenantId: string, taskId: string) {
  if (!/^\d{1,19}$/.test(String(taskId))) throw new AppError(404, texts.taskMissing);
  const [row] = await tx
    .select({
      instanceId: flowTask.instanceId,
      suspended: flowDefinition.suspended,
      isDeleted: flowDefinition.isDeleted,
      key: flowDefinition.defKey,
    })
    .from(flowTask)
    .innerJoin(
      flowDefinition,
      and(eq(flowDefinition.id, flowTask.definitionId), eq(flowDefinition.tenantId, flowTask.tenantId)),
    )
    .where(and(eq(flowTask.id, taskId), eq(flowTask.tenantId, tenantId)))
    .for('share', { of: flowDefinition });
  if (!row) throw new AppError(404, texts.taskMissing);
  return row;
}

/** The instance row and one of its tasks, both locked for the touch in one statement (404 when either is gone). */
async function lockInstanceAndTask(tx: Db, tenantId: string, instanceId: string, taskId: string) {
  const [row] = await tx
    .select({ inst: flowInstance, task: flowTask })
    .from(flowInstance)
    .innerJoin(flowTask, and(eq(flowTask.instanceId, flowInstance.id), eq(flowTask.tenantId, flowInstance.tenantId)))
    .where(and(eq(flowInstance.id, instanceId), eq(flowInstance.tenantId, tenantId), eq(flowTask.id, taskId)))
    .for('update');
  if (!row) throw new AppError(404, texts.taskMissing);
  return row;
}

async function taskOf(tx: Db, tenantId: string, taskId: string, lock: boolean) {
  if (!/^\d{1,19}$/.test(String(taskId))) throw new AppError(404, texts.taskMissing);
  const q = tx
    .select()
    .from(flowTask)
    .where(and(eq(flowTask.id, taskId), eq(flowTask.tenantId, tenantId)));
  const [task] = lock ? await q.for('update') : await q;
  if (!task) throw new AppError(404, texts.taskMissing);
  return task;
}

/**
 * Claims an open task without an assignee for the caller, who must hold one of its candidate roles. The task row is
 * locked: of two claimers the second waits, then finds it claimed (409).
 */
export async function claimTask(s: FlowServices, ctx: FlowCaller, taskId: string) {
  return withTenant(s.db, ctx.tenantId, async (tx) => {
    const task = await taskOf(tx, ctx.tenantId, taskId, true);
    if (task.status === TASK.cancelled) throw new AppError(409, texts.notRunning);
    if (task.status !== TASK.open) throw new AppError(409, texts.alreadyDone);
    if (task.assigneeId) throw new AppError(409, texts.alreadyClaimed);
    const aliases = await aliasesOf(tx, ctx);
    if (!aliases.some((a) => task.candidateRoles.includes(a))) throw new AppError(403, texts.notCandidate);
    const now = s.now();
    await tx
      .update(flowTask)
      .set({
        assigneeId: ctx.userId,
        claimTime: now,
        updateUser: ctx.userId,
        updateTime: now,
        version: sql`${flowTask.version} + 1`,
      })
      .where(and(eq(flowTask.id, task.id), eq(flowTask.tenantId, ctx.tenantId)));
    await tx
      .update(flowHistory)
      .set({ assigneeId: ctx.userId, updateTime: now })
      .where(
        and(
          eq(flowHistory.tenantId, ctx.tenantId),
          eq(flowHistory.instanceId, task.instanceId),
          eq(flowHistory.taskId, task.id),
          isNull(flowHistory.endTime),
        ),
      );
    return { taskId: task.id, instanceId: task.instanceId, assigneeId: ctx.userId };
  });
}

export type CompleteInput = {
  taskId: string;
  /** When given, the task must belong to it (else 404). */
  instanceId?: string | null;
  flag: 'ok' | 'reject';
  comment?: string | null;
  variables?: unknown;
};

/**
 * Completes a task of the caller: the instance is locked first (of two completes the second waits, then finds the
 * task done: 409), the engine rebuilt from the stored state, the task's activity signaled with the variables plus
 * `pass` (flag === 'ok') and `comment`, and the run written. A suspended definition refuses (409).
 */
export async function completeTask(
  s: FlowServices,
  ctx: FlowCaller,
  input: CompleteInput,
): Promise<{ instanceId: string; ended: boolean; tasks: NewTask[] }> {
  if (input.flag !== 'ok' && input.flag !== 'reject') throw badRequest(texts.badFlag);
  const comment = input.comment == null ? null : String(input.comment).trim() || null;
  if (comment && comment.length > 500) throw badRequest(texts.commentTooLong);
  const given = checkVariables(input.variables);
  return withTenant(s.db, ctx.tenantId, async (tx) => {
    // Locks are taken definition → instance → task, the order deleting a deployment takes them too (admin.ts): the
    // task is read with its definition share-locked (one statement), then the instance and the task are locked
    // together (one statement: PostgreSQL locks a join's rows in the order of its FROM list).
    const first = await taskWithDefinition(tx, ctx.tenantId, input.taskId);
    if (input.instanceId != null && String(input.instanceId) !== first.instanceId)
      throw new AppError(404, texts.taskMissing);
    const { inst, task } = await lockInstanceAndTask(tx, ctx.tenantId, first.instanceId, input.taskId);
    if (task.status === TASK.cancelled) throw new AppError(409, texts.notRunning);
    if (task.status !== TASK.open) throw new AppError(409, texts.alreadyDone);
    if (!task.assigneeId) throw new AppError(403, texts.claimFirst);
    if (task.assigneeId !== ctx.userId) throw new AppError(403, texts.notAssignee);
    if (inst.status !== INSTANCE.running || !inst.state) throw new AppError(409, texts.notRunning);
    if (first.isDeleted) throw new AppError(404, texts.definitionMissing);
    if (first.suspended) throw new AppError(409, texts.suspended);
    const pass = input.flag === 'ok';
    const effect = flowEffectOf(s, first.key);
    const event: CompleteEvent = { instance: effectInstance(inst, first.key), task, pass, given };
    const patch = (await effect?.beforeComplete?.(tx, ctx, event)) ?? {};
    const variables = { ...inst.variables, ...given, ...patch, pass, comment: comment ?? '' };
    const model = await modelOf(tx, inst.definitionId);
    const run = await runTouch({
      model,
      definitionId: inst.definitionId,
      state: inst.state,
      variables,
      signal: { elementId: task.elementId, executionId: task.executionId },
    });
    const key = { ...inst, tenantId: ctx.tenantId };
    const outcome = pass ? 'pass' : 'reject';
    const completed = { taskId: task.id, executionId: task.executionId, userId: ctx.userId, outcome, comment } as const;
    const tasks = await writeRun(tx, key, run, variables, s.now(), {
      isNew: false,
      completed,
      hasTimers: model.hasTimers,
    });
    await effect?.afterComplete?.(tx, ctx, { ...event, ended: run.ended, tasks });
    return { instanceId: inst.id, ended: run.ended, tasks };
  });
}

export type DeleteInput = { instanceId: string; reason: string };

/** Ends a running instance with a reason: its open tasks are cancelled, its open history steps ended. */
export async function deleteInstance(s: FlowServices, ctx: FlowCaller, input: DeleteInput) {
  const reason = String(input.reason ?? '').trim();
  if (!reason) throw badRequest(texts.reasonRequired);
  if (reason.length > 500) throw badRequest(texts.reasonTooLong);
  return withTenant(s.db, ctx.tenantId, async (tx) => {
    const inst = await lockInstance(tx, ctx.tenantId, input.instanceId);
    if (inst.status !== INSTANCE.running) throw new AppError(409, texts.notRunning);
    const cancelledTasks = await endInstance(s, tx, ctx, { ...inst, tenantId: ctx.tenantId }, reason, s.now());
    return { instanceId: inst.id, cancelledTasks };
  });
}

/** What a due timer's touch did: fired (the instance moved on), gone (nothing to fire any more), later (not yet). */
export type TimerOutcome = 'fired' | 'gone' | 'later';

/**
 * Fires a due timer (docs/workflow.md "Timers"): its instance is locked, rebuilt from the stored state and resumed —
 * a timer whose due time has passed completes during the resume — and the run is written like any touch. A timer of
 * an instance that ended, or of a definition deleted since, is dropped; a suspended definition's timers wait a minute.
 */
export async function fireTimer(
  s: FlowServices,
  timer: { id: string; tenantId: string; instanceId: string },
): Promise<TimerOutcome> {
  return withTenant(s.db, timer.tenantId, async (tx) => {
    const now = s.now();
    const [row] = await tx.select().from(flowTimer).where(eq(flowTimer.id, timer.id));
    if (!row) return 'gone';
    if (row.dueAt.getTime() > now.getTime()) return 'later';
    const [first] = await tx
      .select({ definitionId: flowInstance.definitionId })
      .from(flowInstance)
      .where(and(eq(flowInstance.id, row.instanceId), eq(flowInstance.tenantId, row.tenantId)));
    if (first) await shareDefinition(tx, row.tenantId, first.definitionId);
    const [inst] = first
      ? await tx
          .select()
          .from(flowInstance)
          .where(and(eq(flowInstance.id, row.instanceId), eq(flowInstance.tenantId, row.tenantId)))
          .for('update')
      : [];
    const drop = async () => {
      await tx
        .delete(flowTimer)
        .where(and(eq(flowTimer.tenantId, row.tenantId), eq(flowTimer.instanceId, row.instanceId)));
      return 'gone' as const;
    };
    if (!inst || inst.status !== INSTANCE.running || !inst.state) return drop();
    const [def] = await tx
      .select({ suspended: flowDefinition.suspended, isDeleted: flowDefinition.isDeleted })
      .from(flowDefinition)
      .where(and(eq(flowDefinition.id, inst.definitionId), eq(flowDefinition.tenantId, row.tenantId)));
    if (!def || def.isDeleted) return drop();
    if (def.suspended) {
      await tx
        .update(flowTimer)
        .set({ dueAt: new Date(now.getTime() + 60_000), lockedUntil: null, lockedBy: null })
        .where(eq(flowTimer.id, row.id));
      return 'later';
    }
    const model = await (await definitionOf(tx, row.tenantId, inst.definitionId)).model();
    const open = await tx
      .select({ executionId: flowTask.executionId })
      .from(flowTask)
      .where(
        and(eq(flowTask.tenantId, row.tenantId), eq(flowTask.instanceId, inst.id), eq(flowTask.status, TASK.open)),
      );
    const waitingBefore = open.map((t) => t.executionId);
    const run = await runTouch({
      model,
      definitionId: inst.definitionId,
      state: inst.state,
      variables: inst.variables,
      waitingBefore,
    });
    await writeRun(tx, { ...inst, tenantId: row.tenantId }, run, inst.variables, now, { isNew: false });
    return 'fired';
  });
}
