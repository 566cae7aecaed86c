import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias, type PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { dept, user } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { parseListQuery, toPage, type ListQuery, type ListRules, type Page } from '../../platform/paging.ts';
import { msg } from '@atrium/contract';
import type { FlowCaller } from './engine/service.ts';
import { flowTexts as texts } from './messages.ts';
import { aliasArray, aliasesOf } from './roles.ts';
import { detailRoute, flowRoutesOf, formRoute, handleRoute, type FlowRoutes } from './routes-map.ts';
import { flowDefinition, flowDeployment, flowHistory, flowInstance, flowTask, INSTANCE, TASK } from './table.ts';

/**
 * The workflow's reads (docs/workflow.md "Lists"): every list is one query on the indexes of migration 0038 with the
 * usual paging, filters and sorts (platform/paging.ts: an unknown filter or sort is a 400 naming it), run in the
 * caller's tenant transaction (row-level security). Times are answered as ISO 8601 text.
 */

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const starter = alias(user, 'starter');
const handler = alias(user, 'handler');

const nameOf = (u: { realName: SQLWrapper; name: SQLWrapper; account: SQLWrapper }) =>
  sql<string | null>`coalesce(${u.realName}, ${u.name}, ${u.account})`;

// ——— Tasks ———

const taskColumns = {
  taskId: flowTask.id,
  taskName: flowTask.name,
  taskDefinitionKey: flowTask.elementId,
  assignee: flowTask.assigneeId,
  assigneeName: nameOf(handler),
  createTime: flowTask.createTime,
  claimTime: flowTask.claimTime,
  endTime: flowTask.completeTime,
  outcome: flowTask.outcome,
  comment: flowTask.comment,
  processInstanceId: flowInstance.id,
  instanceStatus: flowInstance.status,
  businessId: flowInstance.businessKey,
  startUser: flowInstance.starterId,
  startUserName: nameOf(starter),
  processDefinitionId: flowDefinition.id,
  processDefinitionKey: flowDefinition.defKey,
  processDefinitionName: flowDefinition.name,
  processDefinitionVersion: flowDefinition.defVersion,
  category: flowDefinition.category,
  suspended: flowDefinition.suspended,
};
type TaskRow = {
  taskId: string;
  taskName: string | null;
  taskDefinitionKey: string;
  assignee: string | null;
  assigneeName: string | null;
  createTime: Date;
  claimTime: Date | null;
  endTime: Date | null;
  outcome: string | null;
  comment: string | null;
  processInstanceId: string;
  instanceStatus: number;
  businessId: string | null;
  startUser: string;
  startUserName: string | null;
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string;
  processDefinitionVersion: number;
  category: string | null;
  suspended: number;
};

const taskRules: ListRules = {
  filters: {
    processDefinitionName: { column: flowDefinition.name, op: 'like' },
    processDefinitionKey: { column: flowDefinition.defKey, op: 'eq' },
    category: { column: flowDefinition.category, op: 'eq' },
    taskName: { column: flowTask.name, op: 'like' },
    createTime: { column: flowTask.createTime, op: 'range', kind: 'date' },
  },
  sorts: {
    createTime: flowTask.createTime,
    claimTime: flowTask.claimTime,
    endTime: flowTask.completeTime,
    taskName: flowTask.name,
    processDefinitionName: flowDefinition.name,
  },
  createTime: flowTask.createTime,
};

/** Tasks with their instance, definition, starter and assignee, as the lists answer them. */
const selectTasks = (tx: Db) =>
  tx
    .select(taskColumns)
    .from(flowTask)
    .innerJoin(flowInstance, eq(flowInstance.id, flowTask.instanceId))
    .innerJoin(flowDefinition, eq(flowDefinition.id, flowTask.definitionId))
    .leftJoin(starter, eq(starter.id, flowInstance.starterId))
    .leftJoin(handler, eq(handler.id, flowTask.assigneeId));

/** Open tasks assigned to the user (待办, and the bell's count). */
const assignedTo = (userId: string) => and(eq(flowTask.assigneeId, userId), eq(flowTask.status, TASK.open))!;

/** Open tasks nobody holds whose candidate roles meet the role aliases (待签, and the bell's count). */
const claimableBy = (aliases: string[]) =>
  and(
    eq(flowTask.status, TASK.open),
    isNull(flowTask.assigneeId),
    sql`${flowTask.candidateRoles} && ${aliasArray(aliases)}`,
  )!;

/**
 * One page of a list (docs/workflow.md "Lists"): `list.rows` (the list's select, filtered) in the query's order and
 * page, its total — counted with `list.count` only when the page may not hold every row — and the page's records.
 */
async function pageOf<R, T>(
  q: ListQuery,
  list: { rows: PgSelect; count: PromiseLike<{ n: number }[]> },
  records: (rows: R[]) => T[] | Promise<T[]>,
): Promise<Page<T>> {
  const rows = (await list.rows
    .orderBy(...q.orderBy)
    .limit(q.size)
    .offset((q.current - 1) * q.size)) as unknown as R[];
  const total = q.current === 1 && rows.length < q.size ? rows.length : Number((await list.count)[0].n);
  return toPage(await records(rows), total, q);
}

/** A page's records that name their category's screens (routes-map.ts): the routes are read once for the page. */
const withRoutes =
  <R extends { category: string | null }, T>(tx: Db, tenantId: string, record: (r: R, routes: FlowRoutes) => T) =>
  async (rows: R[]) => {
    const routes = await flowRoutesOf(
      tx,
      tenantId,
      rows.map((r) => r.category),
    );
    return rows.map((r) => record(r, routes));
  };

/** Which tasks a work list shows. */
export type TaskListKind = 'todo' | 'claim' | 'done';

/** A page of the caller's tasks: assigned and open (todo), claimable by a role (claim), completed by them (done). */
export async function taskPage(
  tx: Db,
  ctx: FlowCaller,
  kind: TaskListKind,
  query: Record<string, unknown>,
): Promise<Page<ReturnType<typeof taskRecord>>> {
  const q = parseListQuery(query, {
    ...taskRules,
    defaultSort: kind === 'done' ? [desc(flowTask.completeTime), desc(flowTask.id)] : [desc(flowTask.id)],
  });
  let own: SQL;
  if (kind === 'todo') own = assignedTo(ctx.userId);
  else if (kind === 'done') own = eq(flowTask.completedBy, ctx.userId);
  else {
    const aliases = await aliasesOf(tx, ctx);
    if (!aliases.length) return toPage([], 0, q);
    own = claimableBy(aliases);
  }
  const where = and(eq(flowTask.tenantId, ctx.tenantId), own, q.where);
  return pageOf(
    q,
    {
      rows: selectTasks(tx).where(where).$dynamic(),
      count: tx
        .select({ n: count() })
        .from(flowTask)
        .innerJoin(flowDefinition, eq(flowDefinition.id, flowTask.definitionId))
        .where(where),
    },
    withRoutes(tx, ctx.tenantId, taskRecord),
  );
}

function taskRecord(r: TaskRow, routes: FlowRoutes) {
  return {
    taskId: r.taskId,
    taskName: r.taskName ?? r.taskDefinitionKey,
    taskDefinitionKey: r.taskDefinitionKey,
    assignee: r.assignee,
    assigneeName: r.assignee ? r.assigneeName : null,
    createTime: iso(r.createTime)!,
    claimTime: iso(r.claimTime),
    endTime: iso(r.endTime),
    formRoute: handleRoute(routes, r.category),
    flag: r.outcome === 'pass' ? 'ok' : r.outcome === 'reject' ? 'reject' : null,
    comment: r.comment,
    processIsFinished: r.instanceStatus !== INSTANCE.running,
    suspensionState: r.suspended ? 2 : 1,
    processInstanceId: r.processInstanceId,
    processDefinitionId: r.processDefinitionId,
    processDefinitionKey: r.processDefinitionKey,
    processDefinitionName: r.processDefinitionName,
    processDefinitionVersion: r.processDefinitionVersion,
    category: r.category,
    businessId: r.businessId,
    startUser: r.startUser,
    startUserName: r.startUserName,
  };
}

/** One task as the lists show it (the claim's answer); 404 when missing or another tenant's. */
export async function taskById(tx: Db, tenantId: string, taskId: string) {
  const [r] = (await selectTasks(tx).where(and(eq(flowTask.tenantId, tenantId), eq(flowTask.id, taskId)))) as TaskRow[];
  if (!r) throw new AppError(404, texts.taskMissing);
  return taskRecord(r, await flowRoutesOf(tx, tenantId, [r.category]));
}

/** How many tasks wait for the caller: assigned and open, and open unclaimed ones of their roles (the bell). */
export async function waitingCount(tx: Db, ctx: FlowCaller) {
  const tasks = (own: SQL) =>
    tx
      .select({ n: count() })
      .from(flowTask)
      .where(and(eq(flowTask.tenantId, ctx.tenantId), own));
  const [todo] = await tasks(assignedTo(ctx.userId));
  const aliases = await aliasesOf(tx, ctx);
  let claim = 0;
  if (aliases.length) claim = Number((await tasks(claimableBy(aliases)))[0].n);
  return { todo: Number(todo.n), claim };
}

// ——— Instances ———

const instanceColumns = {
  processInstanceId: flowInstance.id,
  businessId: flowInstance.businessKey,
  startUser: flowInstance.starterId,
  startUserName: nameOf(starter),
  startTime: flowInstance.startTime,
  endTime: flowInstance.endTime,
  status: flowInstance.status,
  deleteReason: flowInstance.deleteReason,
  current: flowInstance.current,
  processDefinitionId: flowDefinition.id,
  processDefinitionKey: flowDefinition.defKey,
  processDefinitionName: flowDefinition.name,
  processDefinitionVersion: flowDefinition.defVersion,
  category: flowDefinition.category,
  suspended: flowDefinition.suspended,
};
type InstanceRow = {
  processInstanceId: string;
  businessId: string | null;
  startUser: string;
  startUserName: string | null;
  startTime: Date;
  endTime: Date | null;
  status: number;
  deleteReason: string | null;
  current: { id: string; name: string | null }[];
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string;
  processDefinitionVersion: number;
  category: string | null;
  suspended: number;
};

const STATUS_NAMES = { running: INSTANCE.running, ended: INSTANCE.ended, deleted: INSTANCE.deleted } as const;
const statusName = (n: number) => (n === INSTANCE.running ? 'running' : n === INSTANCE.ended ? 'ended' : 'deleted');

const instanceRules: ListRules = {
  filters: {
    processDefinitionName: { column: flowDefinition.name, op: 'like' },
    processDefinitionKey: { column: flowDefinition.defKey, op: 'eq' },
    category: { column: flowDefinition.category, op: 'eq' },
    startUser: { column: flowInstance.starterId, op: 'eq', kind: 'id' },
    businessId: { column: flowInstance.businessKey, op: 'eq' },
    startTime: { column: flowInstance.startTime, op: 'range', kind: 'date' },
  },
  sorts: {
    startTime: flowInstance.startTime,
    endTime: flowInstance.endTime,
    processDefinitionName: flowDefinition.name,
  },
  defaultSort: [desc(flowInstance.id)],
};

/**
 * A page of instances: those the caller started (send), or every instance of the tenant (follow: running ones
 * unless `status` names another state or `all`).
 */
export async function instancePage(tx: Db, ctx: FlowCaller, kind: 'send' | 'follow', query: Record<string, unknown>) {
  const q = parseListQuery(query, instanceRules, ['status']);
  const raw =
    query.status === undefined || query.status === '' ? (kind === 'follow' ? 'running' : 'all') : query.status;
  if (typeof raw !== 'string' || !(raw === 'all' || raw in STATUS_NAMES))
    throw badRequest(msg('notInList', { label: texts.statusLabel }), [{ field: 'status', message: 'bad value' }]);
  const conds: (SQL | undefined)[] = [eq(flowInstance.tenantId, ctx.tenantId), q.where];
  if (raw !== 'all') conds.push(eq(flowInstance.status, STATUS_NAMES[raw as keyof typeof STATUS_NAMES]));
  if (kind === 'send') conds.push(eq(flowInstance.starterId, ctx.userId));
  const where = and(...conds);
  return pageOf(
    q,
    {
      rows: tx
        .select(instanceColumns)
        .from(flowInstance)
        .innerJoin(flowDefinition, eq(flowDefinition.id, flowInstance.definitionId))
        .leftJoin(starter, eq(starter.id, flowInstance.starterId))
        .where(where)
        .$dynamic(),
      count: tx
        .select({ n: count() })
        .from(flowInstance)
        .innerJoin(flowDefinition, eq(flowDefinition.id, flowInstance.definitionId))
        .where(where),
    },
    withRoutes(tx, ctx.tenantId, instanceRecord),
  );
}

function instanceRecord(r: InstanceRow, routes: FlowRoutes) {
  return {
    processInstanceId: r.processInstanceId,
    processDefinitionId: r.processDefinitionId,
    processDefinitionKey: r.processDefinitionKey,
    processDefinitionName: r.processDefinitionName,
    processDefinitionVersion: r.processDefinitionVersion,
    category: r.category,
    businessId: r.businessId,
    startUser: r.startUser,
    startUserName: r.startUserName,
    startTime: iso(r.startTime)!,
    endTime: iso(r.endTime),
    status: statusName(r.status),
    deleteReason: r.deleteReason,
    currentSteps: (r.current ?? []).map((c) => c.name ?? c.id),
    suspensionState: r.suspended ? 2 : 1,
    detailRoute: detailRoute(routes, r.category),
  };
}

/**
 * Whether the caller may read an instance's history, diagram or business record: its starter, a user who holds or
 * handled one of its tasks, a holder of a candidate role of one of its open tasks, or a tracker (`follow`). Anyone
 * else gets the same 404 as for an instance that does not exist.
 */
export async function readableInstance(tx: Db, ctx: FlowCaller, instanceId: string, tracker: boolean) {
  if (!/^\d{1,19}$/.test(String(instanceId))) throw new AppError(404, texts.instanceMissing);
  const [inst] = await tx
    .select({
      id: flowInstance.id,
      starterId: flowInstance.starterId,
      definitionId: flowInstance.definitionId,
      businessKey: flowInstance.businessKey,
      current: flowInstance.current,
      status: flowInstance.status,
    })
    .from(flowInstance)
    .where(and(eq(flowInstance.tenantId, ctx.tenantId), eq(flowInstance.id, instanceId)));
  if (!inst) throw new AppError(404, texts.instanceMissing);
  if (tracker || inst.starterId === ctx.userId) return inst;
  const aliases = await aliasesOf(tx, ctx);
  const mine: SQL[] = [eq(flowTask.assigneeId, ctx.userId), eq(flowTask.completedBy, ctx.userId)];
  if (aliases.length)
    mine.push(and(eq(flowTask.status, TASK.open), sql`${flowTask.candidateRoles} && ${aliasArray(aliases)}`)!);
  const [hit] = await tx
    .select({ id: flowTask.id })
    .from(flowTask)
    .where(and(eq(flowTask.tenantId, ctx.tenantId), eq(flowTask.instanceId, inst.id), or(...mine)))
    .limit(1);
  if (!hit) throw new AppError(404, texts.instanceMissing);
  return inst;
}

/** Every step of an instance in order, with its assignee, times, outcome and comment. */
export async function historyOf(tx: Db, tenantId: string, instanceId: string) {
  const rows = await tx
    .select({
      id: flowHistory.id,
      elementId: flowHistory.elementId,
      type: flowHistory.elementType,
      name: flowHistory.name,
      assignee: flowHistory.assigneeId,
      assigneeName: nameOf(handler),
      startTime: flowHistory.startTime,
      endTime: flowHistory.endTime,
      outcome: flowHistory.outcome,
      comment: flowHistory.comment,
    })
    .from(flowHistory)
    .leftJoin(handler, eq(handler.id, flowHistory.assigneeId))
    .where(and(eq(flowHistory.tenantId, tenantId), eq(flowHistory.instanceId, instanceId)))
    .orderBy(asc(flowHistory.startTime), asc(flowHistory.id));
  return rows.map((r) => ({
    historyActivityId: r.elementId,
    historyActivityName: r.name ?? r.elementId,
    historyActivityType: r.type.replace(/^bpmn:/, ''),
    assignee: r.assignee,
    assigneeName: r.assignee ? r.assigneeName : null,
    createTime: iso(r.startTime)!,
    endTime: iso(r.endTime),
    historyActivityDurationTime: r.endTime ? r.endTime.getTime() - r.startTime.getTime() : null,
    flag: r.outcome === 'pass' ? 'ok' : r.outcome,
    comment: r.comment,
  }));
}

/** An instance's XML with the elements done (steps and the flows between them) and the ones it waits at. */
export async function diagramOf(
  tx: Db,
  tenantId: string,
  inst: { id: string; definitionId: string; current: { id: string }[] },
) {
  const [def] = await tx
    .select({ xml: flowDefinition.xml })
    .from(flowDefinition)
    .where(and(eq(flowDefinition.tenantId, tenantId), eq(flowDefinition.id, inst.definitionId)));
  if (!def) throw new AppError(404, texts.definitionMissing);
  const steps = await tx
    .select({ elementId: flowHistory.elementId, endTime: flowHistory.endTime })
    .from(flowHistory)
    .where(and(eq(flowHistory.tenantId, tenantId), eq(flowHistory.instanceId, inst.id)));
  const current = [...new Set(inst.current.map((c) => c.id))];
  const done = [...new Set(steps.filter((s) => s.endTime).map((s) => s.elementId))].filter(
    (id) => !current.includes(id),
  );
  return { xml: def.xml, done: [...done, ...flowsBetween(def.xml, new Set([...done, ...current]))], current };
}

/** Sequence flows whose source and target were both reached (drawn green with the steps). */
function flowsBetween(xml: string, reached: Set<string>): string[] {
  const out: string[] = [];
  const re = /<(?:[\w-]+:)?sequenceFlow\b([^>]*)>/g;
  for (const m of xml.matchAll(re)) {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(m[1])?.[1];
    const id = attr('id');
    const from = attr('sourceRef');
    const to = attr('targetRef');
    if (id && from && to && reached.has(from) && reached.has(to)) out.push(id);
  }
  return out;
}

// ——— Definitions ———

const definitionColumns = {
  id: flowDefinition.id,
  deploymentId: flowDefinition.deploymentId,
  key: flowDefinition.defKey,
  name: flowDefinition.name,
  category: flowDefinition.category,
  version: flowDefinition.defVersion,
  suspended: flowDefinition.suspended,
  deploymentTime: flowDeployment.deployTime,
  resourceName: flowDeployment.name,
  tenantId: flowDefinition.tenantId,
};
type DefinitionRow = {
  id: string;
  deploymentId: string | null;
  key: string;
  name: string;
  category: string | null;
  version: number;
  suspended: number;
  deploymentTime: Date | null;
  resourceName: string | null;
  tenantId: string;
};

const definitionRules: ListRules = {
  filters: {
    key: { column: flowDefinition.defKey, op: 'like' },
    name: { column: flowDefinition.name, op: 'like' },
    category: { column: flowDefinition.category, op: 'eq' },
    suspensionState: { column: flowDefinition.suspended, op: 'eq', kind: 'int' },
  },
  sorts: {
    key: flowDefinition.defKey,
    name: flowDefinition.name,
    version: flowDefinition.defVersion,
    deploymentTime: flowDeployment.deployTime,
  },
  defaultSort: [desc(flowDefinition.id)],
};

export async function definitionRecords(tx: Db, tenantId: string, rows: DefinitionRow[]) {
  return withRoutes(tx, tenantId, definitionRecord)(rows);
}

function definitionRecord(r: DefinitionRow, routes: FlowRoutes) {
  return {
    id: r.id,
    deploymentId: r.deploymentId ?? '',
    key: r.key,
    name: r.name,
    category: r.category,
    version: r.version,
    suspensionState: r.suspended ? 2 : 1,
    deploymentTime: iso(r.deploymentTime) ?? '',
    resourceName: r.resourceName ?? `${r.key}.bpmn`,
    tenantId: r.tenantId,
    formRoute: formRoute(routes, r.category),
  };
}

/**
 * A page of process definitions: every version (manager), or the latest version of each key that is not suspended
 * (start: what the caller may start).
 */
export async function definitionPage(
  tx: Db,
  tenantId: string,
  kind: 'manager' | 'start',
  query: Record<string, unknown>,
) {
  const fromQuery = { ...query };
  // The suspension state is answered 1 (active) / 2 (suspended) and filtered the same way (manager only).
  const state = fromQuery.suspensionState;
  if (kind === 'manager' && state !== undefined && state !== '') {
    if (state !== '1' && state !== '2')
      throw badRequest(msg('notInList', { label: texts.stateLabel }), [{ field: 'suspensionState', message: 'bad' }]);
    fromQuery.suspensionState = state === '2' ? '1' : '0';
  }
  const { suspensionState, ...startFilters } = definitionRules.filters;
  void suspensionState;
  const q = parseListQuery(
    fromQuery,
    kind === 'start' ? { ...definitionRules, filters: startFilters } : definitionRules,
  );
  const conds: (SQL | undefined)[] = [eq(flowDefinition.tenantId, tenantId), eq(flowDefinition.isDeleted, 0), q.where];
  if (kind === 'start')
    conds.push(
      eq(flowDefinition.suspended, 0),
      sql`${flowDefinition.defVersion} = (select max(d.def_version) from flow_definition d where d.tenant_id = ${flowDefinition.tenantId} and d.def_key = ${flowDefinition.defKey} and d.is_deleted = 0)`,
    );
  const where = and(...conds);
  return pageOf(
    q,
    {
      rows: tx
        .select(definitionColumns)
        .from(flowDefinition)
        .leftJoin(flowDeployment, eq(flowDeployment.id, flowDefinition.deploymentId))
        .where(where)
        .$dynamic(),
      count: tx
        .select({ n: count() })
        .from(flowDefinition)
        .leftJoin(flowDeployment, eq(flowDeployment.id, flowDefinition.deploymentId))
        .where(where),
    },
    withRoutes(tx, tenantId, definitionRecord),
  );
}

/** Definitions by id, as the lists show them. */
export async function definitionsById(tx: Db, tenantId: string, ids: string[]) {
  if (!ids.length) return [];
  const rows = (await tx
    .select(definitionColumns)
    .from(flowDefinition)
    .leftJoin(flowDeployment, eq(flowDeployment.id, flowDefinition.deploymentId))
    .where(and(eq(flowDefinition.tenantId, tenantId), inArray(flowDefinition.id, ids)))
    .orderBy(asc(flowDefinition.id))) as DefinitionRow[];
  return definitionRecords(tx, tenantId, rows);
}

// ——— Users an applicant may pick ———

/** At most 50 active staff users of the tenant whose account or name holds `name`. */
export async function userOptions(tx: Db, tenantId: string, name?: string) {
  const conds: (SQL | undefined)[] = [
    eq(user.tenantId, tenantId),
    eq(user.isDeleted, 0),
    eq(user.status, 1),
    eq(user.userType, 1),
  ];
  const text = name?.trim();
  if (text) {
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(or(ilike(user.account, like), ilike(user.realName, like), ilike(user.name, like)));
  }
  const rows = await tx
    .select({ id: user.id, account: user.account, realName: nameOf(user), deptName: dept.deptName })
    .from(user)
    .leftJoin(dept, eq(dept.id, user.deptId))
    .where(and(...conds))
    .orderBy(asc(user.account))
    .limit(50);
  return rows.map((r) => ({ id: r.id, account: r.account, realName: r.realName, deptName: r.deptName }));
}
