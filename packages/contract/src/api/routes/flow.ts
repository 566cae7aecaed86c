import { defineRoute } from '../route.ts';
import type * as S from './flow.schemas.ts';

/**
 * Workflow (docs/workflow.md): models, deployments, tracking, the user's work, a process's history and the leave
 * process; schemas in flow.schemas.ts. The permissions are the menu codes of 流程管理 and 我的事务 and their buttons
 * (apps/server/src/db/seed-data/menus.ts): `model`, `deploy`, `follow`, `work_start`, `work_claim`, `work_todo`,
 * `work_send`, `work_done`. A task or an instance is further checked on the server: only its assignee completes a
 * task, only a holder of a candidate role claims it, only a participant (or a tracker) reads an instance.
 */

// ——— Models (模型管理) ———

export const modelList = defineRoute<typeof S.modelList>()({
  method: 'GET',
  path: '/api/blade-flow/model/list',
  auth: 'user',
  permission: 'model',
  summary: 'A page of the tenant’s models (key, name, category, version, times), filtered by key or name',
});

export const modelDetail = defineRoute<typeof S.modelDetail>()({
  method: 'GET',
  path: '/api/blade-flow/model/detail',
  auth: 'user',
  permission: 'model',
  summary: 'One model with its BPMN XML, for the modeler',
});

export const modelSubmit = defineRoute<typeof S.modelSubmit>()({
  method: 'POST',
  path: '/api/blade-flow/model/submit',
  auth: 'user',
  permission: ['model_add', 'model_edit'],
  summary: 'Creates or saves a model; the XML is checked (docs/workflow.md "Checks"); a stale version is a 409',
});

export const modelRemove = defineRoute<typeof S.modelRemove>()({
  method: 'POST',
  path: '/api/blade-flow/model/remove',
  auth: 'user',
  permission: 'model_delete',
  summary: 'Removes models (their deployed versions stay)',
});

export const modelDeploy = defineRoute<typeof S.modelDeploy>()({
  method: 'POST',
  path: '/api/blade-flow/model/deploy',
  auth: 'user',
  permission: 'model_deploy',
  summary: 'Deploys a model as a new version of its process, in this tenant or (the platform) in tenantIds',
});

// ——— Deployments (流程部署) ———

export const managerList = defineRoute<typeof S.managerList>()({
  method: 'GET',
  path: '/api/blade-flow/manager/list',
  auth: 'user',
  permission: 'deploy',
  summary: 'A page of the deployed process definitions (every version), filtered by category or key',
});

export const changeState = defineRoute<typeof S.changeState>()({
  method: 'POST',
  path: '/api/blade-flow/manager/change-state',
  auth: 'user',
  permission: 'deploy_state',
  summary: 'Suspends or activates a process definition: a suspended one cannot be started nor its tasks completed',
});

export const deployUpload = defineRoute<typeof S.deployUpload>()({
  method: 'POST',
  path: '/api/blade-flow/manager/deploy-upload',
  auth: 'user',
  permission: 'deploy_upload',
  bodyType: 'multipart',
  summary: 'Deploys .bpmn / .bpmn20.xml files under a category, in this tenant or (the platform) in tenantIds',
});

export const deleteDeployment = defineRoute<typeof S.deleteDeployment>()({
  method: 'POST',
  path: '/api/blade-flow/manager/delete-deployment',
  auth: 'user',
  permission: 'deploy_delete',
  summary: 'Deletes deployments; with running instances only with cascade, which ends them (the answer counts them)',
});

// ——— Tracking (流程跟踪) ———

export const followList = defineRoute<typeof S.followList>()({
  method: 'GET',
  path: '/api/blade-flow/follow/list',
  auth: 'user',
  permission: 'follow',
  summary: 'A page of the running process instances with their current steps',
});

export const deleteProcessInstance = defineRoute<typeof S.deleteProcessInstance>()({
  method: 'POST',
  path: '/api/blade-flow/follow/delete-process-instance',
  auth: 'user',
  permission: 'follow_delete',
  summary: 'Ends a running instance with a reason (its open tasks are cancelled; the history keeps the reason)',
});

// ——— My work (我的事务) ———

export const startList = defineRoute<typeof S.startList>()({
  method: 'GET',
  path: '/api/blade-flow/work/start-list',
  auth: 'user',
  permission: 'work_start',
  summary: 'The latest active version of each process the tenant may start, with its form route',
});

export const claimList = defineRoute<typeof S.claimList>()({
  method: 'GET',
  path: '/api/blade-flow/work/claim-list',
  auth: 'user',
  permission: 'work_claim',
  summary: 'A page of the open, unclaimed tasks of the caller’s roles',
});

export const todoList = defineRoute<typeof S.todoList>()({
  method: 'GET',
  path: '/api/blade-flow/work/todo-list',
  auth: 'user',
  permission: 'work_todo',
  summary: 'A page of the open tasks assigned to the caller',
});

export const sendList = defineRoute<typeof S.sendList>()({
  method: 'GET',
  path: '/api/blade-flow/work/send-list',
  auth: 'user',
  permission: 'work_send',
  summary: 'A page of the instances the caller started, running or ended, with their current steps',
});

export const doneList = defineRoute<typeof S.doneList>()({
  method: 'GET',
  path: '/api/blade-flow/work/done-list',
  auth: 'user',
  permission: 'work_done',
  summary: 'A page of the tasks the caller completed',
});

export const waitingCount = defineRoute<typeof S.waitingCount>()({
  method: 'GET',
  path: '/api/blade-flow/work/waiting-count',
  auth: 'user',
  summary: 'How many tasks wait for the caller (assigned and claimable): the top bar’s bell',
});

export const userOptions = defineRoute<typeof S.userOptions>()({
  method: 'GET',
  path: '/api/blade-flow/work/user-options',
  auth: 'user',
  permission: 'work_start',
  summary: 'Users of the caller’s tenant an applicant may pick as approver (id, account, name, department), by name',
});

export const claimTask = defineRoute<typeof S.claimTask>()({
  method: 'POST',
  path: '/api/blade-flow/work/claim-task',
  auth: 'user',
  permission: 'work_claim_sign',
  summary: 'Claims an open task of one of the caller’s roles: one claimer wins, the others get a 409',
});

export const completeTask = defineRoute<typeof S.completeTask>()({
  method: 'POST',
  path: '/api/blade-flow/work/complete-task',
  auth: 'user',
  permission: 'work_todo_handle',
  summary: 'Completes the caller’s task, passing or rejecting with a comment; a second complete is a 409',
});

// ——— A process's history and diagram ———

export const historyFlowList = defineRoute<typeof S.historyFlowList>()({
  method: 'GET',
  path: '/api/blade-flow/process/history-flow-list',
  auth: 'user',
  summary: 'Every step of an instance with its assignee, times, outcome and comment (participants and trackers)',
});

export const diagram = defineRoute<typeof S.diagram>()({
  method: 'GET',
  path: '/api/blade-flow/process/diagram',
  auth: 'user',
  summary: 'An instance’s BPMN XML with its done and current elements, for the highlighted viewer',
});

// ——— The leave process (spec §2, docs/workflow.md "The leave process") ———

export const leaveStart = defineRoute<typeof S.leaveStart>()({
  method: 'POST',
  path: '/api/blade-desk/process/leave/start-process',
  auth: 'user',
  permission: 'work_start',
  summary: 'Files a leave request and starts its process: the approver picked on the form gets the first task',
});

export const leaveDetail = defineRoute<typeof S.leaveDetail>()({
  method: 'GET',
  path: '/api/blade-desk/process/leave/detail',
  auth: 'user',
  summary: 'A leave request with its process (participants and trackers)',
});
