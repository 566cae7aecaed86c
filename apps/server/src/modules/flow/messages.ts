/**
 * Texts of the flow module (the message catalogue's per-module part). The engine's errors and the statuses the
 * routes answer them with are in `engine/errors.ts` (docs/workflow.md "The engine").
 */
export const flowTexts = {
  definitionMissing: { zh: '流程定义不存在', en: 'The process definition does not exist' },
  instanceMissing: { zh: '流程实例不存在', en: 'The process instance does not exist' },
  taskMissing: { zh: '任务不存在', en: 'The task does not exist' },
  suspended: {
    zh: '流程已挂起，不能发起或办理，请先激活',
    en: 'The process is suspended: it cannot be started or handled until it is activated',
  },
  alreadyClaimed: { zh: '任务已被他人签收', en: 'The task has already been claimed' },
  alreadyDone: { zh: '任务已办理，不能重复办理', en: 'The task has already been completed' },
  notRunning: { zh: '流程实例已结束或已删除', en: 'The process instance has ended or was deleted' },
  stale: {
    zh: '任务状态已变化，请刷新后重试',
    en: 'The task changed meanwhile; reload and try again',
  },
  notAssignee: { zh: '只有任务的办理人可以办理该任务', en: 'Only the assignee of the task can complete it' },
  claimFirst: { zh: '请先签收该任务', en: 'Claim the task before completing it' },
  notCandidate: {
    zh: '您没有签收该任务的角色',
    en: 'None of your roles may claim this task',
  },
  badFlag: { zh: '审批结果只能是通过或驳回', en: 'The outcome must be pass (ok) or reject' },
  commentTooLong: { zh: '审批意见不能超过500个字符', en: 'The comment must be at most 500 characters' },
  reasonRequired: { zh: '请填写删除原因', en: 'Enter the reason for deleting the instance' },
  reasonTooLong: { zh: '删除原因不能超过500个字符', en: 'The reason must be at most 500 characters' },
  badVariables: {
    zh: '流程变量无效：{detail}',
    en: 'Invalid process variables: {detail}',
  },
  badModel: { zh: '流程模型无效：{detail}', en: 'The process model is invalid: {detail}' },
  noProcess: {
    zh: '流程模型中没有可执行的流程',
    en: 'The process model has no executable process',
  },
  badKey: {
    zh: '流程标识只能包含字母、数字、下划线和连字符，且以字母或下划线开头',
    en: 'The process key may hold letters, digits, underscores and hyphens, and starts with a letter or underscore',
  },
  nameRequired: { zh: '请输入流程名称', en: 'Enter the process name' },
  elementFailed: {
    zh: '流程在“{element}”处无法继续：{detail}',
    en: 'The process cannot go on at "{element}": {detail}',
  },
  scriptRefused: {
    zh: '流程在“{element}”处无法继续：Atrium 不运行模型中的脚本',
    en: 'The process cannot go on at "{element}": Atrium runs no script of a model',
  },
  badAssignee: {
    zh: '“{element}”的办理人“{value}”不是本租户的用户',
    en: 'The assignee "{value}" of "{element}" is not a user of this tenant',
  },
  noHandler: {
    zh: '“{element}”既没有办理人也没有候选角色',
    en: '"{element}" has neither an assignee nor candidate roles',
  },
} as const;
