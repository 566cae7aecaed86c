import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { globalTables } from '../src/db/schema/tables.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { rowsOf } from '../src/db/rows.ts';

/**
 * Database introspection (docs/resources.md "Checks"): every table that carries tenant_id has row-level security
 * enabled and forced, with a policy that reads the transaction's tenant; every other table is declared global with
 * a reason. A table made without the helpers cannot slip through.
 */
let t: TestApp;
type TableRow = { name: string; tenant: boolean; rls: boolean; forced: boolean; policies: string[] };
let tables: TableRow[];

beforeAll(async () => {
  t = await createTestApp();
  tables = await rowsOf<TableRow>(
    t.services.db,
    sql`
    select c.relname as name,
      exists (select 1 from information_schema.columns i
              where i.table_schema = 'public' and i.table_name = c.relname and i.column_name = 'tenant_id') as tenant,
      c.relrowsecurity as rls, c.relforcerowsecurity as forced,
      coalesce((select array_agg(p.qual || ' / ' || coalesce(p.with_check, '')) from pg_policies p
                where p.schemaname = 'public' and p.tablename = c.relname), '{}') as policies
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r'
    order by c.relname`,
  );
});
afterAll(async () => t?.close());

describe('every table is tenant-scoped under RLS, or declared global with a reason', () => {
  it('finds the tables', () => {
    expect(tables.map((x) => x.name)).toEqual(expect.arrayContaining(['user', 'post', 'black_info', 'tenant']));
  });

  it('tenant tables: RLS enabled, forced, and every policy compares tenant_id with app.tenant_id', () => {
    const bad = tables
      .filter((x) => x.tenant && !globalTables.has(x.name))
      .filter(
        (x) =>
          !x.rls ||
          !x.forced ||
          x.policies.length === 0 ||
          !x.policies.every((p) => p.includes("current_setting('app.tenant_id'")),
      )
      .map((x) => `${x.name}: rls=${x.rls} forced=${x.forced} policies=${x.policies.length}`);
    expect(bad).toEqual([]);
  });

  it('tables without RLS are declared global, with a reason', () => {
    const undeclared = tables.filter((x) => !x.rls && !globalTables.has(x.name)).map((x) => x.name);
    expect(undeclared).toEqual([]);
    for (const [name, reason] of globalTables) expect([name, reason.length > 10]).toEqual([name, true]);
  });

  it('the check would catch a table made without the helper', async () => {
    await t.services.db.execute(sql`create table stray (id bigint primary key, tenant_id varchar(12))`);
    const rows = await rowsOf<{ rls: boolean }>(
      t.services.db,
      sql`select relrowsecurity as rls from pg_class where relname = 'stray' and relkind = 'r'`,
    );
    expect(rows[0].rls).toBe(false);
    expect(globalTables.has('stray')).toBe(false);
    await t.services.db.execute(sql`drop table stray`);
  });
});
