/** The public entry of the module (docs/server.md "Module boundaries"): its plugin, and what other modules use. */
export { default } from './module.ts';
export { connectionOf } from './service.ts';
export { datasource } from './table.ts';
export { datasourceTexts } from './messages.ts';
