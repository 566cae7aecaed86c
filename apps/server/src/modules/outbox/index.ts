/** The public entry of the module (docs/server.md "Module boundaries"): its plugin, and what other modules use. */
export { default } from './module.ts';
export { outboxTexts } from './messages.ts';
export { enqueueEmail, enqueueSms, PHONE, renderTemplate } from './service.ts';
export { outbox, smsConfig, smtpConfig } from './table.ts';
