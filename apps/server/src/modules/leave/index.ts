/** The public entry of the module (docs/server.md "Module boundaries"): its plugin, and what other modules use. */
export { default } from './module.ts';
export { seedLeaveDefaults, seedMissingLeave } from './seed.ts';
export { leaveDetail, leaveEffect, startLeave } from './service.ts';
export { LEAVE_STATUS, processLeave } from './table.ts';
export { leaveTexts } from './messages.ts';
