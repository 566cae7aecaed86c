import { z } from 'zod';
import type { Msg } from '../../resource/define.ts';
import { encodeMsg, idLabels, msg } from '../../resource/messages.ts';
import { apiTexts as texts } from '../messages.ts';
import { idSchema, MAX_ID } from '../../resource/schema.ts';
import { listQuery, pageOf } from '../records.ts';
import type { RouteSchemas } from '../route.ts';

/**
 * The schemas of the workflow calls (addresses in flow.ts; docs/workflow.md). Lists take the usual paging and sorts
 * (`listQuery`, checked by the server's list rules); the server refuses a filter or sort it does not know with a
 * 400 naming it, in the caller's language.
 */

const L = {
  modelKey: texts.flow_modelKey,
  name: texts.flow_name,
  category: texts.flow_category,
  description: texts.flow_description,
  xml: texts.flow_xml,
  state: texts.flow_state,
  reason: texts.flow_reason,
  comment: texts.flow_comment,
  flag: texts.flow_flag,
  leaveType: texts.flow_leaveType,
  startTime: texts.flow_startTime,
  endTime: texts.flow_endTime,
  taskUser: texts.flow_taskUser,
  leaveReason: texts.flow_leaveReason,
} satisfies Record<string, Msg>;

const isId = (s: string) => /^\d{1,19}$/.test(s) && BigInt(s) <= MAX_ID;
/** Ids in a body or a query: an array or a comma list. */
const idArray = z
  .union([z.array(z.union([z.string(), z.number()])), z.string().max(20000)])
  .transform((v) => (Array.isArray(v) ? v.map(String) : v.split(',')).map((x) => x.trim()).filter(Boolean))
  .refine((a) => a.length <= 1000 && a.every(isId), encodeMsg(msg('notId', { label: idLabels.ids })));
const id = idSchema();
const text = (label: Msg, max: number) =>
  z
    .string({ error: encodeMsg(msg('notText', { label })) })
    .trim()
    .max(max, encodeMsg(msg('tooLong', { label, max })));
const required = (label: Msg, max: number) => text(label, max).min(1, encodeMsg(msg('required', { label })));
/** A BPMN document in a body: at most 1 MiB of text (docs/workflow.md "Checks"). */
const xml = required(L.xml, 1024 * 1024);
/** Tenant ids a platform deployment is for: a comma list or an array of 6-character codes. */
const tenantIds = z
  .union([z.array(z.string()), z.string().max(2000)])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((x) => x.trim()).filter(Boolean))
  .optional();
const ok = z.boolean();
/** A process category: a key of the business dictionary `flow` (docs/workflow.md "Flow routes"), sent as text or a number. */
const category = z.union([z.number().int().nonnegative().transform(String), text(L.category, 64)]).optional();

// ——— Records ———

export const modelRecord = z.object({
  id: z.string(),
  modelKey: z.string(),
  name: z.string(),
  category: z.string().nullable(),
  description: z.string().nullable(),
  /** The model's own edit version (409 on a stale save); a deployment makes a new process definition version. */
  version: z.number().int(),
  createTime: z.string(),
  updateTime: z.string().nullable(),
  /** The latest deployed version of its process in this tenant, if any. */
  deployedVersion: z.number().int().nullable(),
});

export const definitionRecord = z.object({
  id: z.string(),
  deploymentId: z.string(),
  key: z.string(),
  name: z.string(),
  category: z.string().nullable(),
  version: z.number().int(),
  /** 1 active, 2 suspended. */
  suspensionState: z.number().int(),
  deploymentTime: z.string(),
  resourceName: z.string(),
  tenantId: z.string(),
  /**
   * Its start form's route (docs/workflow.md "Flow routes": the category's route + `/form`, e.g.
   * `/work/process/leave/form`); the console appends `/:processDefinitionId`. Null: no form for its category.
   */
  formRoute: z.string().nullable(),
});

/** What a task and an instance both answer: the instance, its process definition, its business row and its starter. */
const processOf = {
  processInstanceId: z.string(),
  processDefinitionId: z.string(),
  processDefinitionKey: z.string(),
  processDefinitionName: z.string(),
  processDefinitionVersion: z.number().int(),
  category: z.string().nullable(),
  businessId: z.string().nullable(),
  startUser: z.string(),
  startUserName: z.string().nullable(),
};

/** A task as the work lists show it. */
export const taskRecord = z.object({
  ...processOf,
  taskId: z.string(),
  taskName: z.string(),
  taskDefinitionKey: z.string(),
  assignee: z.string().nullable(),
  assigneeName: z.string().nullable(),
  createTime: z.string(),
  claimTime: z.string().nullable(),
  endTime: z.string().nullable(),
  /** The handling route (category route + `/handle`); the console appends `/:taskId/:processInstanceId/:businessId`. */
  formRoute: z.string().nullable(),
  /** For a done task: `ok` (passed) or `reject`, and the comment. */
  flag: z.string().nullable(),
  comment: z.string().nullable(),
  processIsFinished: z.boolean(),
  suspensionState: z.number().int(),
});

/** An instance as tracking and the sent list show it. */
export const instanceRecord = z.object({
  ...processOf,
  startTime: z.string(),
  endTime: z.string().nullable(),
  /** running, ended (reached its end), deleted (ended by a tracker, with `deleteReason`). */
  status: z.enum(['running', 'ended', 'deleted']),
  deleteReason: z.string().nullable(),
  /** The names of the steps it waits at. */
  currentSteps: z.array(z.string()),
  suspensionState: z.number().int(),
  /** The detail route (category route + `/detail`); the console appends `/:processInstanceId/:businessId`. */
  detailRoute: z.string().nullable(),
});

export const historyRecord = z.object({
  historyActivityId: z.string(),
  historyActivityName: z.string(),
  historyActivityType: z.string(),
  assignee: z.string().nullable(),
  assigneeName: z.string().nullable(),
  createTime: z.string(),
  endTime: z.string().nullable(),
  /** Milliseconds, once ended. */
  historyActivityDurationTime: z.number().nullable(),
  flag: z.string().nullable(),
  comment: z.string().nullable(),
});

export const leaveRecord = z.object({
  id: z.string(),
  processDefinitionId: z.string(),
  processInstanceId: z.string(),
  category: z.number().int(),
  startTime: z.string(),
  endTime: z.string(),
  days: z.number(),
  reason: z.string(),
  taskUser: z.string(),
  taskUserName: z.string().nullable(),
  applyUser: z.string(),
  applyUserName: z.string().nullable(),
  applyTime: z.string(),
  /** running, passed, rejected back to the applicant, cancelled. */
  status: z.string(),
});

// ——— Models ———

export const modelList = { query: listQuery, answer: pageOf(modelRecord) } satisfies RouteSchemas;
export const modelDetail = {
  query: z.object({ id }),
  answer: modelRecord.extend({ xml: z.string() }),
} satisfies RouteSchemas;
export const modelSubmit = {
  body: z.object({
    id: id.optional(),
    modelKey: required(L.modelKey, 64).regex(
      /^[A-Za-z_][A-Za-z0-9_.-]*$/,
      encodeMsg(msg('badFormat', { label: L.modelKey })),
    ),
    name: required(L.name, 100),
    category,
    description: text(L.description, 500).optional(),
    xml,
    version: z.number().int().optional(),
  }),
  answer: modelRecord,
} satisfies RouteSchemas;
export const modelRemove = { query: z.object({ ids: idArray }), answer: ok } satisfies RouteSchemas;
export const modelDeploy = {
  body: z.object({ modelId: id, category, tenantIds }),
  answer: z.object({ deploymentId: z.string(), definitions: z.array(definitionRecord) }),
} satisfies RouteSchemas;

// ——— Deployments ———

export const managerList = { query: listQuery, answer: pageOf(definitionRecord) } satisfies RouteSchemas;
export const changeState = {
  query: z.object({
    processId: id,
    state: z.enum(['active', 'suspend'], { error: encodeMsg(msg('notInList', { label: L.state })) }),
  }),
  answer: definitionRecord,
} satisfies RouteSchemas;
/** The multipart body is read by the handler (files, category, tenantIds): the limits are in docs/workflow.md. */
export const deployUpload = {
  answer: z.object({ deploymentIds: z.array(z.string()), definitions: z.array(definitionRecord) }),
} satisfies RouteSchemas;
export const deleteDeployment = {
  query: z.object({ deploymentIds: idArray, cascade: z.union([z.boolean(), z.enum(['true', 'false'])]).optional() }),
  answer: z.object({ deployments: z.number().int(), instancesEnded: z.number().int() }),
} satisfies RouteSchemas;

// ——— Tracking ———

export const followList = { query: listQuery, answer: pageOf(instanceRecord) } satisfies RouteSchemas;
export const deleteProcessInstance = {
  body: z.object({ processInstanceId: id, deleteReason: required(L.reason, 500) }),
  answer: ok,
} satisfies RouteSchemas;

// ——— My work ———

export const startList = { query: listQuery, answer: pageOf(definitionRecord) } satisfies RouteSchemas;
export const taskList = { query: listQuery, answer: pageOf(taskRecord) } satisfies RouteSchemas;
export const instanceList = { query: listQuery, answer: pageOf(instanceRecord) } satisfies RouteSchemas;
export const claimList = taskList;
export const todoList = taskList;
export const doneList = taskList;
export const sendList = instanceList;
export const waitingCount = {
  answer: z.object({ todo: z.number().int(), claim: z.number().int() }),
} satisfies RouteSchemas;
/** The approver picker of a start form: at most 50 active users of the tenant, matching `name` (account or name). */
export const userOptions = {
  query: z.object({ name: text(L.name, 64).optional() }),
  answer: z.array(
    z.object({ id: z.string(), account: z.string(), realName: z.string().nullable(), deptName: z.string().nullable() }),
  ),
} satisfies RouteSchemas;
export const claimTask = { query: z.object({ taskId: id }), answer: taskRecord } satisfies RouteSchemas;
export const completeTask = {
  body: z.object({
    taskId: id,
    processInstanceId: id,
    flag: z.enum(['ok', 'reject'], { error: encodeMsg(msg('notInList', { label: L.flag })) }),
    comment: text(L.comment, 500).optional(),
    /** Form values of the task (the safe expressions of the model read them); plain values only. */
    variables: z
      .record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
      .optional(),
  }),
  answer: ok,
} satisfies RouteSchemas;

// ——— History and diagram ———

export const historyFlowList = {
  query: z.object({ processInstanceId: id }),
  answer: z.array(historyRecord),
} satisfies RouteSchemas;
export const diagram = {
  query: z.object({ processInstanceId: id }),
  answer: z.object({ xml: z.string(), done: z.array(z.string()), current: z.array(z.string()) }),
} satisfies RouteSchemas;

// ——— Leave ———

const dateTime = (label: Msg) => required(label, 19);
export const leaveStart = {
  body: z.object({
    processDefinitionId: id,
    category: z.union([z.number().int(), z.string().regex(/^\d{1,4}$/)], {
      error: encodeMsg(msg('choose', { label: L.leaveType })),
    }),
    startTime: dateTime(L.startTime),
    endTime: dateTime(L.endTime),
    reason: required(L.leaveReason, 500),
    taskUser: idSchema(L.taskUser),
  }),
  answer: leaveRecord,
} satisfies RouteSchemas;
export const leaveDetail = {
  query: z.object({ businessId: id }),
  answer: leaveRecord.extend({ history: z.array(historyRecord) }),
} satisfies RouteSchemas;
