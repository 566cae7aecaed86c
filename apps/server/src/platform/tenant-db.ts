import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** Tables without a tenant are declared, with their reason, beside their schema (`declareGlobal`, db/schema/tables.ts). */

/**
 * Runs `fn` in one transaction as the non-superuser role atrium_app with app.tenant_id set, so
 * PostgreSQL row-level security filters every tenant table to that tenant even if a query forgets to.
 */
export async function withTenant<T>(db: Db, tenantId: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (!tenantId || !/^\d{6,12}$/.test(tenantId)) throw new Error('withTenant: missing or malformed tenant context');
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('app.tenant_id', ${tenantId}, true), set_config('role', 'atrium_app', true)`,
    );
    return fn(tx as unknown as Db);
  });
}
