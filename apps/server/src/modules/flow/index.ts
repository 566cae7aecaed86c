/** The public entry of the module (docs/server.md "Module boundaries"): its plugin, and what other modules use. */
export { default } from './module.ts';
export { deployDefinition, setSuspended } from './engine/definitions.ts';
export {
  claimTask,
  completeTask,
  deleteInstance,
  startInstance,
  startInstanceIn,
  type FlowCaller,
  type FlowServices,
} from './engine/service.ts';
export {
  applyDeleteEffect,
  registerFlowEffect,
  type CompleteEvent,
  type EffectCaller,
  type EffectInstance,
  type FlowEffect,
} from './effects.ts';
export { flowDefinition, flowHistory, flowInstance, flowTask } from './table.ts';
export { flowTexts } from './messages.ts';
export { TimerWorker } from './engine/timers.ts';
export { seedBizDictOnce, seedFlowCategories } from './seed.ts';
export { historyOf, readableInstance, waitingCount } from './queries.ts';
