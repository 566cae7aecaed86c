import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Tables deliberately reachable without a tenant filter, and why. Every other table carries tenant_id,
 * is queried only inside withTenant(), and is guarded by row-level security (migration 0001_rls).
 */
export const GLOBAL_TABLES = {
  tenant: 'the tenants themselves; managed by the platform administrator only',
  oauth_client: 'OAuth clients are platform-wide; checked before any tenant is known',
  dict: 'system dictionaries are platform-managed and read by every tenant',
  param: 'system parameters are platform-wide settings',
  captcha: 'issued before login, keyed by a random id',
  login_failure: 'written while the caller is not yet authenticated; keyed by tenant + account',
  auth_session: 'refresh tokens are looked up by hash before the tenant is known',
  system_secret: 'server secrets (signing key)',
} as const;

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
