import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { and, eq, isNotNull, or } from 'drizzle-orm';
import { connectionStringOf, openDatabase, type Database, type Db } from '../../db/client.ts';
import { tenant } from '../../db/schema/index.ts';
import { PLATFORM_TENANT } from '../../platform/access.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { tenantRoutesOf } from '../../platform/tenant-route.ts';
import { connectionOf } from '../datasource/index.ts';
import { tenantTexts as texts } from './messages.ts';
import { deleteTenantRows, exportTenant, importTenant } from './transfer.ts';

/**
 * A tenant on its own database (docs/tenants.md "Moving a tenant"): `bindTenant` moves the tenant's rows to a data
 * source's database and routes its transactions there (platform/tenant-route.ts); binding to none moves them back.
 * The data sources' pools are the app's, opened lazily and closed when no tenant uses them.
 */

/** How long a move waits for this server's transactions of the tenant to end, and for other servers to hear. */
const DRAIN_MS = 10_000;
const HEAR_MS = 300;

/** Reference data the tenant's queries read beside its own rows: copied to a data source at every move to it. */
const REFERENCE = [
  { table: 'dict', where: '' },
  { table: 'param', where: '' },
  { table: 'region', where: '' },
  { table: 'oauth_client', where: '' },
  // The platform's menus, which every tenant's roles are granted (role_menu references them).
  { table: 'menu', where: `tenant_id = '${PLATFORM_TENANT}'` },
];

/**
 * The global queues whose rows carry a tenant's work (docs/tenants.md "Background work"): written in the tenant's
 * transaction, so on its database; a move carries the tenant's rows of them along.
 */
const QUEUES = ['flow_timer', 'outbox_job', 'attach_removal'];

/** The data sources' databases of one app, by data source id. */
type Pools = Map<string, Promise<Database>>;
const poolsOf = new WeakMap<Services, Pools>();
const pools = (s: Services): Pools => {
  let p = poolsOf.get(s);
  if (!p) poolsOf.set(s, (p = new Map()));
  return p;
};

/** The database of a data source (its pool opened on first use). */
async function databaseOf(s: Services, datasourceId: string): Promise<Database> {
  const p = pools(s);
  let open = p.get(datasourceId);
  if (!open) {
    open = connectionOf(s, s.db, datasourceId).then(({ url }) => openDatabase({ databaseUrl: url, poolSize: 5 }));
    p.set(datasourceId, open);
    open.catch(() => p.delete(datasourceId));
  }
  return open;
}

/** Closes the pools no bound tenant uses. */
async function closeUnused(s: Services, keep: Set<string>) {
  for (const [id, open] of pools(s))
    if (!keep.has(id)) {
      pools(s).delete(id);
      await (await open.catch(() => undefined))?.close().catch(() => {});
    }
}

/** Closes every data source pool of the app (its close hook). */
export async function closeTenantPools(s: Services) {
  await closeUnused(s, new Set());
}

/**
 * Reads the binding of one tenant (or, with null, of every tenant) from the main database into this server's routing
 * table: at start, and at each live event of the tenant table (another server bound, unbound or began a move).
 */
export async function loadTenantRoutes(s: Services, tenantId: string | null): Promise<void> {
  if (!connectionStringOf(s.db)) return;
  const rows = await s.db
    .select({ tenantId: tenant.tenantId, datasourceId: tenant.datasourceId, moveState: tenant.moveState })
    .from(tenant)
    .where(
      tenantId
        ? eq(tenant.tenantId, tenantId)
        : and(eq(tenant.isDeleted, 0), or(isNotNull(tenant.datasourceId), isNotNull(tenant.moveState))),
    );
  const routes = tenantRoutesOf(s.db);
  if (!tenantId) {
    routes.databases.clear();
    routes.moving.clear();
  }
  for (const r of rows) {
    if (r.moveState) routes.moving.add(r.tenantId);
    else routes.moving.delete(r.tenantId);
    if (r.datasourceId) routes.databases.set(r.tenantId, (await databaseOf(s, r.datasourceId)).db);
    else routes.databases.delete(r.tenantId);
  }
  if (tenantId && !rows.length) {
    routes.moving.delete(tenantId);
    routes.databases.delete(tenantId);
  }
}

/** What a move did, and how long it took. */
export type MoveResult = { tenantId: string; datasourceId: string | null; rows: number; ms: number };

/**
 * Moves a tenant's rows to the data source `datasourceId` (null: back to the main database), in one consistent step:
 * the target migrated, the tenant marked moving (its requests answered 503), this server's transactions of it waited
 * for, its rows exported from one snapshot and imported in one transaction, the binding recorded and the source's
 * rows deleted in one transaction of the main database, the moving mark taken away.
 */
export async function bindTenant(s: Services, tenantId: string, datasourceId: string | null): Promise<MoveResult> {
  const started = Date.now();
  if (!connectionStringOf(s.db)) throw badRequest(texts.embeddedNoMove);
  if (tenantId === PLATFORM_TENANT) throw badRequest(texts.importPlatform);
  const [row] = await s.db
    .select({ datasourceId: tenant.datasourceId, moveState: tenant.moveState })
    .from(tenant)
    .where(and(eq(tenant.tenantId, tenantId), eq(tenant.isDeleted, 0)))
    .limit(1);
  if (!row) throw new AppError(404, texts.importUnknownTenant);
  if (row.moveState) throw new AppError(409, texts.moveRunning);
  const from = row.datasourceId ?? null;
  if (from === datasourceId) return { tenantId, datasourceId, rows: 0, ms: 0 };
  const source = from ? (await databaseOf(s, from)).db : s.db;
  let target: Db = s.db;
  if (datasourceId) {
    const database = await databaseOf(s, datasourceId);
    // The same migrations, roles and row-level security as the main database, then the reference data.
    await database.exclusive(() => database.migrate());
    await copyReference(s.db, database.db, tenantId);
    target = database.db;
  }

  // Moving: refused everywhere from now on (this server at once, the others at the live event of the update).
  const marked = await s.db
    .update(tenant)
    .set({ moveState: 'moving' })
    .where(and(eq(tenant.tenantId, tenantId), eq(tenant.isDeleted, 0)))
    .returning({ id: tenant.id });
  if (!marked.length) throw new AppError(404, texts.importUnknownTenant);
  const routes = tenantRoutesOf(s.db);
  routes.moving.add(tenantId);
  try {
    await drained(routes.running, tenantId);
    const rows = await copyTenant(source, target, tenantId);
    await copyQueues(source, target, tenantId);
    if (datasourceId) {
      // The main database's rows go and the binding is recorded in one transaction of the main database.
      await deleteTenantRows(s.db, tenantId, async (q) => {
        await dropQueues(q, tenantId);
        await q(`update tenant set datasource_id = $1, move_state = null where tenant_id = $2`, [
          datasourceId,
          tenantId,
        ]);
      });
    } else {
      await s.db.update(tenant).set({ datasourceId: null, moveState: null }).where(eq(tenant.tenantId, tenantId));
    }
    if (datasourceId) routes.databases.set(tenantId, target);
    else routes.databases.delete(tenantId);
    routes.moving.delete(tenantId);
    // From a data source (back to the main database, or to another): its copy goes, the target holds the rows.
    if (from) await deleteTenantRows(source, tenantId, (q) => dropQueues(q, tenantId));
    await closeUnused(s, new Set(await boundSources(s)));
    return { tenantId, datasourceId, rows, ms: Date.now() - started };
  } catch (err) {
    await s.db.update(tenant).set({ moveState: null }).where(eq(tenant.tenantId, tenantId));
    routes.moving.delete(tenantId);
    throw err;
  }
}

async function boundSources(s: Services): Promise<string[]> {
  const rows = await s.db
    .selectDistinct({ id: tenant.datasourceId })
    .from(tenant)
    .where(and(isNotNull(tenant.datasourceId), eq(tenant.isDeleted, 0)));
  return rows.map((r) => String(r.id));
}

/** Waits for this server's transactions of the tenant to end, then a moment for the other servers to hear. */
async function drained(running: Map<string, number>, tenantId: string) {
  const until = Date.now() + DRAIN_MS;
  while ((running.get(tenantId) ?? 0) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, HEAR_MS));
}

/** The tenant's export from `source` piped into an import on `target` (replacing what a failed attempt left). */
async function copyTenant(source: Db, target: Db, tenantId: string): Promise<number> {
  const pipe = new PassThrough();
  const lines = createInterface({ input: pipe, crlfDelay: Infinity });
  const writing = exportTenant(source, tenantId, async (text) => {
    if (!pipe.write(text)) await once(pipe, 'drain');
  }).then(
    (r) => {
      pipe.end();
      return r;
    },
    (err: unknown) => {
      pipe.end();
      throw err;
    },
  );
  const [written, read] = await Promise.allSettled([writing, importTenant(target, tenantId, lines, { replace: true })]);
  if (written.status === 'rejected') throw written.reason;
  if (read.status === 'rejected') throw read.reason;
  return read.value.rows;
}

/**
 * The reference data a tenant's queries read beside its own rows (system dictionaries, parameters, regions, OAuth
 * clients, the platform's menus) and the tenant rows of the platform and of the tenant: copied from the main database
 * to the data source in one transaction (COPY both ways), replacing what it held.
 */
async function copyReference(main: Db, target: Db, tenantId: string) {
  const list = [...REFERENCE, { table: 'tenant', where: `tenant_id in ('${PLATFORM_TENANT}', '${tenantId}')` }];
  await copyTables(main, target, list);
}

/**
 * The tenant's rows of the global queues (docs/tenants.md "Background work"): a timer, a message or a removal queued
 * before the move is worked on where the tenant now lives. Copied to the target with their claims cleared (a claim
 * of the source ends with the tenant's 503 while it moves); the source's go with its tenant rows.
 */
async function copyQueues(source: Db, target: Db, tenantId: string) {
  const where = `tenant_id = '${tenantId}'`;
  await copyTables(
    source,
    target,
    QUEUES.map((table) => ({ table, where })),
    async (b) => {
      for (const table of QUEUES)
        await b.query(`update "${table}" set locked_until = null, locked_by = null where ${where}`);
    },
  );
}

/** The source's queue rows of the tenant, deleted in the caller's transaction (with its tenant rows). */
async function dropQueues(q: (text: string, values?: unknown[]) => Promise<unknown>, tenantId: string) {
  for (const table of QUEUES) await q(`delete from "${table}" where tenant_id = $1`, [tenantId]);
}

/**
 * Copies the rows of `list` (each table's `where`, or all) from one database to another in one transaction of the
 * target (COPY both ways, from a repeatable-read snapshot of the source), replacing what the target held of them;
 * `finish` runs in the target's transaction before it commits.
 */
async function copyTables(
  from: Db,
  to: Db,
  list: { table: string; where: string }[],
  finish?: (b: pg.Client) => Promise<void>,
) {
  const [fromUrl, toUrl] = [connectionStringOf(from)!, connectionStringOf(to)!];
  const a = new pg.Client({ connectionString: fromUrl });
  const b = new pg.Client({ connectionString: toUrl });
  a.on('error', () => {});
  b.on('error', () => {});
  await Promise.all([a.connect(), b.connect()]);
  try {
    await a.query('begin isolation level repeatable read read only');
    await b.query('begin');
    await b.query('set local session_replication_role = replica');
    for (const { table, where } of list) {
      const cols = (
        await a.query<{ c: string }>(
          `select attname as c from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
          [`"${table}"`],
        )
      ).rows.map((r) => `"${r.c}"`);
      await b.query(`delete from "${table}"${where ? ` where ${where}` : ''}`);
      const out = a.query(
        copyTo(`copy (select ${cols.join(', ')} from "${table}"${where ? ` where ${where}` : ''}) to stdout`),
      );
      const into = b.query(copyFrom(`copy "${table}" (${cols.join(', ')}) from stdin`));
      await pipeline(out, into);
    }
    await finish?.(b);
    await b.query('commit');
    await a.query('commit');
  } catch (err) {
    await b.query('rollback').catch(() => {});
    throw err;
  } finally {
    await Promise.all([a.end().catch(() => {}), b.end().catch(() => {})]);
  }
}
