import { sql, type SQL } from 'drizzle-orm';
import { pipelinedTransactionOf, type Db, type Statement } from '../db/client.ts';
import { pgliteTxOf } from '../db/pglite-thread.ts';
import { rowsOf } from '../db/rows.ts';
import { routeTenant } from './tenant-route.ts';

/** Tables without a tenant are declared, with their reason, beside their schema (`declareGlobal`, db/schema/tables.ts). */

/** The open transactions of `withTenant`, and the work each has to do at its end (`afterTenantTx`). */
type TxEnd = (committed: boolean) => Promise<void>;
const open = new WeakSet<Db>();
const ends = new WeakMap<Db, TxEnd[]>();

/**
 * Runs `fn` in one transaction as the non-superuser role atrium_app with app.tenant_id set, so
 * PostgreSQL row-level security filters every tenant table to that tenant even if a query forgets to.
 */
export async function withTenant<T>(main: Db, tenantId: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (!tenantId || !/^\d{6,12}$/.test(tenantId)) throw new Error('withTenant: missing or malformed tenant context');
  // A tenant bound to a data source runs on its database (docs/tenants.md "Routing").
  const route = routeTenant(main, tenantId);
  let opened: Db | undefined;
  let committed = false;
  try {
    const out = await tenantTx(route.db, tenantId, (tx) => {
      opened = tx;
      open.add(tx);
      return fn(tx);
    });
    committed = true;
    return out;
  } finally {
    route.done();
    if (opened) {
      open.delete(opened);
      // No hop of its own when nothing was registered (every transaction passes here).
      const list = ends.get(opened);
      if (list) {
        ends.delete(opened);
        await Promise.allSettled(list.map((f) => f(committed)));
      }
    }
  }
}

/**
 * Work to do when a transaction of `withTenant` has ended, told whether it committed (docs/tenants.md "Sub-domain
 * hosts of a moved tenant": what a moved tenant's transaction changes on the main database follows its commit or is
 * undone by its rollback). The transaction's caller waits for it before it is answered; a failure is the work's own
 * to log. False when `tx` is not a transaction of `withTenant` (nothing will call `fn`).
 */
export function afterTenantTx(tx: Db, fn: TxEnd): boolean {
  if (!open.has(tx)) return false;
  const list = ends.get(tx);
  if (list) list.push(fn);
  else ends.set(tx, [fn]);
  return true;
}

function tenantTx<T>(db: Db, tenantId: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  // PostgreSQL: the context goes out with `begin`, one round trip (docs/server.md "Round trips").
  const pipelined = pipelinedTransactionOf(db);
  if (pipelined) return pipelined({ text: TENANT_CONTEXT_SQL, values: [tenantId] }, fn);
  return embeddedTenantTx(db, tenantId, fn, false);
}

/**
 * withTenant() on the embedded database: the context goes to the worker with the first statement, no hop of its own
 * (docs/server.md "Embedded database"); `readOnly` makes a write fail and leaves the end unwaited.
 */
function embeddedTenantTx<T>(db: Db, tenantId: string, fn: (tx: Db) => Promise<T>, readOnly: boolean): Promise<T> {
  return db.transaction(async (tx) => {
    const embedded = pgliteTxOf(tx);
    if (embedded) {
      if (readOnly) embedded.readOnly();
      embedded.before(TENANT_CONTEXT_SQL, [tenantId]);
    } else
      await tx.execute(
        sql`select set_config('app.tenant_id', ${tenantId}, true), set_config('role', 'atrium_app', true)`,
      );
    return fn(tx);
  });
}

/**
 * withTenant() for work that only reads (a list, a detail): a read-only transaction (a write in it fails). On
 * PostgreSQL its `begin`, the tenant context and the first query share one round trip, and the commit is not waited
 * for (docs/server.md "Round trips"); on PGlite the same: one message to the worker, the end not waited for
 * (docs/server.md "Embedded database").
 */
export async function readTenant<T>(
  main: Db,
  tenantId: string,
  fn: (tx: Db) => Promise<T>,
  check?: ReadCheck,
  opts?: { single?: boolean },
): Promise<T> {
  if (!tenantId || !/^\d{6,12}$/.test(tenantId)) throw new Error('readTenant: missing or malformed tenant context');
  const route = routeTenant(main, tenantId);
  try {
    return await readOn(route.db, tenantId, fn, check, opts);
  } finally {
    route.done();
  }
}

async function readOn<T>(
  db: Db,
  tenantId: string,
  fn: (tx: Db) => Promise<T>,
  check?: ReadCheck,
  opts?: { single?: boolean },
): Promise<T> {
  const pipelined = pipelinedTransactionOf(db);
  const first = { text: TENANT_CONTEXT_SQL, values: [tenantId] };
  const single = !!opts?.single;
  if (!check || check.settled) {
    if (pipelined) return pipelined(first, fn, { readOnly: true, single });
    return embeddedTenantTx(db, tenantId, fn, true);
  }
  // The request's live-state check rides with this read: its statement goes out with `begin` (PostgreSQL) or runs
  // first in the transaction (PGlite), and it decides before anything read is answered.
  let rows: Record<string, unknown>[] | undefined;
  let out: T | undefined;
  let failure: unknown;
  let failed = false;
  try {
    out = pipelined
      ? await pipelined(first, fn, {
          readOnly: true,
          single,
          also: { statement: check.statement, onRows: (r) => (rows = r) },
        })
      : await embeddedTenantTx(
          db,
          tenantId,
          async (tx) => {
            check.settle(await rowsOf<Record<string, unknown>>(tx, check.query));
            return fn(tx);
          },
          true,
        );
  } catch (e) {
    failed = true;
    failure = e;
  }
  if (!check.settled) {
    if (rows) check.settle(rows);
    else await check.runNow();
  }
  if (failed) throw failure;
  return out as T;
}

/** A check a read makes in its own round trip and that decides before the read's result counts (platform/live.ts). */
export type ReadCheck = {
  /** The check as a statement (PostgreSQL: sent with `begin`) and as drizzle SQL (PGlite: run first). */
  statement: Statement;
  query: SQL;
  settled: boolean;
  /** Judges the check's rows; throws to refuse what was read. */
  settle(rows: Record<string, unknown>[]): void;
  /** Makes the check on its own (the read never reached the database). */
  runNow(): Promise<void>;
};

/**
 * The tenant context of a transaction (what withTenant sets): the tenant row-level security filters on, the role;
 * bench/bare-list.ts sends it too.
 */
export const TENANT_CONTEXT_SQL = `select set_config('app.tenant_id', $1, true), set_config('role', 'atrium_app', true)`;
