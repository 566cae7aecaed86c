/**
 * Texts of the flow module (the message catalogue's per-module part). The engine's errors and the statuses the
 * routes answer them with are in `engine/errors.ts` (docs/workflow.md "The engine").
 */
export const flowTexts = {
  statusLabel: { zh: '流程状态', en: 'status' },
  stateLabel: { zh: '挂起状态', en: 'suspension state' },
  modelMissing: { zh: '流程模型不存在', en: 'The process model does not exist' },
  modelStale: {
    zh: '模型已被他人修改，请刷新后再保存',
    en: 'The model was changed by someone else; reload it before saving',
  },
  modelKeyTaken: { zh: '模型标识已存在', en: 'A model with this key already exists' },
  modelEmpty: { zh: '模型还没有流程图，请先设计并保存', en: 'The model has no diagram yet: draw and save it first' },
  chooseModels: { zh: '请选择要删除的模型', en: 'Choose the models to remove' },
  chooseDeployments: { zh: '请选择要删除的部署', en: 'Choose the deployments to delete' },
  deploymentMissing: { zh: '流程部署不存在', en: 'The deployment does not exist' },
  deploymentRunning: {
    zh: '该部署下还有 {n} 个运行中的流程实例；确认级联删除将一并结束这些实例',
    en: '{n} process instances of this deployment are still running; delete with cascade to end them too',
  },
  deploymentDeleted: { zh: '流程部署已删除', en: 'The deployment was deleted' },
  badTenantIds: { zh: '租户编号格式不正确', en: 'A tenant id is not valid' },
  tenantIdsPlatformOnly: {
    zh: '只有平台管理员可以为其他租户部署流程',
    en: 'Only the platform administrator may deploy for other tenants',
  },
  unknownTenants: { zh: '租户不存在：{ids}', en: 'No such tenant: {ids}' },
  noFiles: {
    zh: '请上传 .bpmn 或 .bpmn20.xml 流程文件',
    en: 'Upload one or more .bpmn or .bpmn20.xml process files',
  },
  badFileType: {
    zh: '文件“{file}”不是 .bpmn 或 .bpmn20.xml 文件',
    en: 'The file "{file}" is not a .bpmn or .bpmn20.xml file',
  },
  fileTooLarge: {
    zh: '文件“{file}”超过 1 MB',
    en: 'The file "{file}" is larger than 1 MB',
  },
  tooManyFiles: { zh: '一次最多上传 {max} 个文件', en: 'At most {max} files at once' },
  fileProblem: { zh: '文件“{file}”：{detail}', en: 'File "{file}": {detail}' },
  deployed: { zh: '部署成功', en: 'Deployed' },
  suspendedDone: { zh: '流程已挂起', en: 'The process is suspended' },
  activated: { zh: '流程已激活', en: 'The process is active' },
  deploymentsDeleted: {
    zh: '已删除 {n} 个部署，结束 {ended} 个流程实例',
    en: '{n} deployments deleted, {ended} process instances ended',
  },
  badCategory: {
    zh: '流程分类只能包含字母、数字、下划线和连字符',
    en: 'The category may hold letters, digits, underscores and hyphens only',
  },
  unknownField: { zh: '不支持的表单字段：{name}', en: 'Unknown form field: {name}' },
  claimed: { zh: '签收成功', en: 'Claimed' },
  completedPass: { zh: '已通过', en: 'Passed' },
  completedReject: { zh: '已驳回', en: 'Rejected' },
  instanceDeleted: { zh: '流程实例已删除', en: 'The process instance was deleted' },
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
