import { sql } from 'drizzle-orm';
import { index, integer, jsonb, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { declareGlobal, pgTable, tenantTable } from '../../db/schema/tables.ts';

/**
 * The workflow's tables (docs/workflow.md "Tables"). Every one is a tenant table (row-level security). The audit
 * columns' `status` carries each table's own state, named by the constants below; `version` counts the writes of a
 * row (the instance's moves with each touch of the engine).
 */

/** `flow_instance.status`. */
export const INSTANCE = { running: 1, ended: 2, deleted: 3 } as const;
/** `flow_task.status`. */
export const TASK = { open: 1, done: 2, cancelled: 3 } as const;

/** A model being drawn (the modeler's XML), before it is deployed. */
export const flowModel = tenantTable(
  'flow_model',
  {
    modelKey: varchar('model_key', { length: 64 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    category: varchar('category', { length: 64 }),
    description: varchar('description', { length: 500 }),
    xml: text('xml'),
  },
  (t) => [
    uniqueIndex('flow_model_key_uq')
      .on(t.tenantId, t.modelKey)
      .where(sql`is_deleted = 0`),
    index('flow_model_list_idx').on(t.tenantId, t.id),
  ],
);

/** One deployment: the definitions it brought (one per process of its files). */
export const flowDeployment = tenantTable(
  'flow_deployment',
  {
    name: varchar('name', { length: 100 }).notNull(),
    category: varchar('category', { length: 64 }),
    deployTime: ts('deploy_time').notNull(),
  },
  (t) => [index('flow_deployment_list_idx').on(t.tenantId, t.id)],
);

/** A user task of a definition, as the model says it (docs/workflow.md "The engine"). */
export type UserTaskInfo = {
  id: string;
  name: string | null;
  assignee: string | null;
  candidateGroups: string | null;
  formKey: string | null;
};

/** A process definition: one version of a key; its XML never changes once stored. */
export const flowDefinition = tenantTable(
  'flow_definition',
  {
    deploymentId: idColumn('deployment_id').references(() => flowDeployment.id),
    defKey: varchar('def_key', { length: 64 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    /** 1, 2, … per tenant and key (the audit column `version` is the row's own). */
    defVersion: integer('def_version').notNull(),
    category: varchar('category', { length: 64 }),
    /** The id of the executable process in the XML (what the engine runs). */
    processId: varchar('process_id', { length: 255 }).notNull(),
    xml: text('xml').notNull(),
    suspended: smallint('suspended').notNull().default(0),
    userTasks: jsonb('user_tasks').$type<UserTaskInfo[]>().notNull(),
  },
  (t) => [
    uniqueIndex('flow_definition_key_version_uq').on(t.tenantId, t.defKey, t.defVersion),
    index('flow_definition_list_idx').on(t.tenantId, t.id),
  ],
);

/** A waiting or done step of an instance, as the lists show it. */
export type CurrentStep = { id: string; name: string | null };

/** A running (or ended, or deleted) process instance with the engine's state, written at each touch. */
export const flowInstance = tenantTable(
  'flow_instance',
  {
    definitionId: idColumn('definition_id')
      .notNull()
      .references(() => flowDefinition.id),
    businessKey: varchar('business_key', { length: 64 }),
    starterId: idColumn('starter_id').notNull(),
    startTime: ts('start_time').notNull(),
    endTime: ts('end_time'),
    /** The user tasks waiting now. */
    current: jsonb('current').$type<CurrentStep[]>().notNull(),
    variables: jsonb('variables').$type<Record<string, unknown>>().notNull(),
    /** bpmn-engine's `getState()` without the model's source (rebuilt from the definition). */
    state: jsonb('state'),
    deleteReason: varchar('delete_reason', { length: 500 }),
  },
  (t) => [
    // send-list: the instances a user started, newest first.
    index('flow_instance_starter_idx').on(t.tenantId, t.starterId, t.id),
    // follow-list: running instances, newest first.
    index('flow_instance_status_idx').on(t.tenantId, t.status, t.id),
    index('flow_instance_definition_idx').on(t.tenantId, t.definitionId),
  ],
);

/** A user task of an instance: open (waiting for its assignee or a claimer), done or cancelled. */
export const flowTask = tenantTable(
  'flow_task',
  {
    instanceId: idColumn('instance_id')
      .notNull()
      .references(() => flowInstance.id),
    definitionId: idColumn('definition_id')
      .notNull()
      .references(() => flowDefinition.id),
    elementId: varchar('element_id', { length: 255 }).notNull(),
    /** The engine's execution of the waiting activity (what a complete signals). */
    executionId: varchar('execution_id', { length: 255 }).notNull(),
    name: varchar('name', { length: 255 }),
    assigneeId: idColumn('assignee_id'),
    /** Role aliases that may claim the task while it has no assignee. */
    candidateRoles: text('candidate_roles').array().notNull(),
    formKey: varchar('form_key', { length: 255 }),
    claimTime: ts('claim_time'),
    completeTime: ts('complete_time'),
    completedBy: idColumn('completed_by'),
    /** 'pass' or 'reject' once done. */
    outcome: varchar('outcome', { length: 10 }),
    comment: varchar('comment', { length: 500 }),
  },
  (t) => [
    // todo-list: open tasks of an assignee, newest first.
    index('flow_task_todo_idx').on(t.tenantId, t.assigneeId, t.status, t.id),
    // claim-list: open unassigned tasks whose candidate roles meet the user's (array overlap).
    index('flow_task_claim_idx')
      .using('gin', t.candidateRoles)
      .where(sql`status = 1 and assignee_id is null`),
    index('flow_task_claimable_idx')
      .on(t.tenantId, t.id)
      .where(sql`status = 1 and assignee_id is null`),
    // done-list: tasks a user completed, newest first.
    index('flow_task_done_idx').on(t.tenantId, t.completedBy, t.completeTime),
    index('flow_task_instance_idx').on(t.tenantId, t.instanceId),
  ],
);

/** Every step an instance went through (activities, not flows): the history list and the viewer's highlights. */
export const flowHistory = tenantTable(
  'flow_history',
  {
    instanceId: idColumn('instance_id')
      .notNull()
      .references(() => flowInstance.id),
    elementId: varchar('element_id', { length: 255 }).notNull(),
    elementType: varchar('element_type', { length: 64 }).notNull(),
    name: varchar('name', { length: 255 }),
    taskId: idColumn('task_id'),
    assigneeId: idColumn('assignee_id'),
    startTime: ts('start_time').notNull(),
    endTime: ts('end_time'),
    outcome: varchar('outcome', { length: 10 }),
    comment: varchar('comment', { length: 500 }),
  },
  (t) => [index('flow_history_instance_idx').on(t.tenantId, t.instanceId, t.startTime, t.id)],
);

/**
 * The timers waiting in instances (docs/workflow.md "Timers"): one row per timer of a waiting instance, rewritten
 * with each touch of it, claimed by the timer worker when due (FOR UPDATE SKIP LOCKED and a lease, so several servers
 * share the work and a claim of a server that died is taken again). The instance's state stays in its tenant's
 * `flow_instance` row, touched under that tenant's row-level security.
 */
export const flowTimer = pgTable(
  'flow_timer',
  {
    id: idColumn('id').primaryKey(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    instanceId: idColumn('instance_id').notNull(),
    elementId: varchar('element_id', { length: 255 }).notNull(),
    executionId: varchar('execution_id', { length: 255 }).notNull(),
    dueAt: ts('due_at').notNull(),
    lockedUntil: ts('locked_until'),
    lockedBy: varchar('locked_by', { length: 64 }),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [index('flow_timer_due_idx').on(t.dueAt), index('flow_timer_instance_idx').on(t.tenantId, t.instanceId)],
);

declareGlobal('flow_timer', "the timer worker's schedule across tenants: ids, due times and leases only, no state");
