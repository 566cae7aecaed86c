import { sql } from 'drizzle-orm';
import {
  getTableConfig,
  pgPolicy,
  pgTable as drizzlePgTable,
  varchar,
  type PgTable,
  type PgColumnBuilderBase,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { auditColumns, idColumn } from './columns.ts';

/**
 * The two ways a table is made (docs/resources.md "Tables"). A tenant table gets its id, its tenant column, the
 * audit columns and the row-level-security policy in the schema itself, so drizzle-kit generates the policy with
 * the table and no migration is edited by hand. A global table must say why it has no tenant.
 */

/** The predicate of every tenant table: the row's tenant is the transaction's (set by withTenant()). */
export const tenantPredicate = sql`tenant_id = current_setting('app.tenant_id', true)`;

/** The row-level-security policy of a tenant table (enabled by drizzle-kit with the policy; forced at migrate). */
export const tenantPolicy = () =>
  pgPolicy('tenant_isolation', {
    as: 'permissive',
    for: 'all',
    to: 'public',
    using: tenantPredicate,
    withCheck: tenantPredicate,
  });

/** Tables without a tenant, and why. The database introspection test refuses any other table without RLS. */
export const globalTables = new Map<string, string>();

/** Declares a table (made elsewhere, e.g. a link table or a log) as deliberately global. */
export function declareGlobal(name: string, reason: string): void {
  globalTables.set(name, reason);
}

/**
 * Every table of the schema that carries `tenant_id`, by name, as it is defined (the schema registry the per-tenant
 * export reads, docs/tenants.md "Export format"). Filled by `pgTable` below, which every schema file uses instead of
 * drizzle's: a table cannot be defined past it. `tenantTableList()` leaves out the tables declared global.
 */
const withTenantColumn = new Map<string, PgTable>();

/** drizzle's `pgTable`, recording the table in the schema registry when it carries `tenant_id`. */
export const pgTable = ((...args: Parameters<typeof drizzlePgTable>) => {
  const table = drizzlePgTable(...args);
  const config = getTableConfig(table);
  if (config.columns.some((c) => c.name === 'tenant_id')) withTenantColumn.set(config.name, table);
  return table;
}) as typeof drizzlePgTable;

/** The tenant tables of the schema (every table with `tenant_id` that is not declared global), by name. */
export function tenantTableList(): { name: string; table: PgTable }[] {
  return [...withTenantColumn]
    .filter(([name]) => !globalTables.has(name))
    .map(([name, table]) => ({ name, table }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The columns handed to an index / constraint callback. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Cols = Record<string, any>;
type Extra = (t: Cols) => PgTableExtraConfigValue[];

/** A tenant-scoped record table: id, tenant_id, the given columns, the audit columns, and the tenant policy. */
export function tenantTable<N extends string, C extends Record<string, PgColumnBuilderBase>>(
  name: N,
  columns: C,
  extra?: Extra,
) {
  return pgTable(
    name,
    {
      id: idColumn('id').primaryKey(),
      tenantId: varchar('tenant_id', { length: 12 }).notNull(),
      ...columns,
      ...auditColumns(),
    },
    (t) => [...(extra?.(t) ?? []), tenantPolicy()],
  );
}

/** A tenant-scoped table that is not a record (a link table): its columns, tenant_id, and the tenant policy. */
export function tenantLinkTable<N extends string, C extends Record<string, PgColumnBuilderBase>>(
  name: N,
  columns: C,
  extra?: Extra,
) {
  return pgTable(name, { ...columns, tenantId: varchar('tenant_id', { length: 12 }).notNull() }, (t) => [
    ...(extra?.(t) ?? []),
    tenantPolicy(),
  ]);
}

/** A record table shared by every tenant: no tenant column, so it must say why. */
export function globalTable<N extends string, C extends Record<string, PgColumnBuilderBase>>(
  name: N,
  reason: string,
  columns: C,
  extra?: Extra,
) {
  declareGlobal(name, reason);
  return pgTable(name, { id: idColumn('id').primaryKey(), ...columns, ...auditColumns() }, (t) => extra?.(t) ?? []);
}
