/** The public entry of the module (docs/server.md "Module boundaries"): its plugin, and what other modules use. */
export { default } from './module.ts';
export { clientScopeSql, fixtureApprovedClient, registerClientUsage, withClientNames } from './service.ts';
export { clientInfo } from './table.ts';
