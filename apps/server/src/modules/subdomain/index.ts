/** The public entry of the module (docs/server.md "Module boundaries"): its plugin, and what other modules use. */
export { default } from './module.ts';
export { bindDevice, runningHostTenant, runningHostTenantSql, unbindDevice } from './service.ts';
export { subDomain } from './table.ts';
