/** The public entry of the module (docs/server.md "Module boundaries"): its plugin, and what other modules use. */
export { default } from './module.ts';
export { decideApproval, openApproval, registerApprovalEffect, withdrawPending } from './service.ts';
export { approvalTable } from './table.ts';
export { approvalTexts } from './messages.ts';
