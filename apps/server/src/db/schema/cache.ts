import { bigint, varchar } from 'drizzle-orm/pg-core';
import { declareGlobal, pgTable } from './tables.ts';

declareGlobal(
  'cache_epoch',
  "the read caches' version per tenant and for the platform-wide data ('*'); read by every request before its tenant context",
);

/**
 * One row per cache scope: a tenant id, or '*' for what every tenant reads (platform menus, system dictionaries,
 * parameters). A write that changes cached data adds one to its scope's epoch in its own transaction; every server
 * sharing the database reads the epochs with each request's live state (docs/server.md "Live state and cache epochs").
 * `ref:<table>` counts the writes to a reference table, `synced:<table>` (on a data source) the copy it holds
 * (docs/tenants.md "Reference data on a data source").
 */
export const cacheEpoch = pgTable('cache_epoch', {
  scope: varchar('scope', { length: 32 }).primaryKey(),
  epoch: bigint('epoch', { mode: 'number' }).notNull().default(0),
});
