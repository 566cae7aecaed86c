import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { CONNECT_TIMEOUT_MS } from '../../db/client.ts';
import { PLATFORM_TENANT } from '../../platform/access.ts';
import { jobLockKey } from '../../platform/singleton.ts';

/**
 * The reference data on a data source (docs/tenants.md "Reference data on a data source"): what a moved tenant's
 * queries read beside its own rows — system dictionaries, parameters, regions, OAuth clients, the platform's menus
 * (which every tenant's roles are granted) and the tenant rows of the platform and of the tenants living there — is a
 * copy of the main database's, brought in step after every change there. Each write to one of these tables moves its
 * epoch `ref:<table>` on the main database (a trigger, db/migrations/0050_move_recovery.sql); a data source records
 * the epoch of the copy it holds as `synced:<table>`, and a table is copied when the two differ.
 */
const TABLES = ['dict', 'param', 'region', 'oauth_client', 'menu', 'tenant'] as const;

/** What one sync did: whether it ran (another server held the data source's turn), the tables and rows copied. */
export type SyncResult = { ran: boolean; tables: string[]; rows: number; ms: number };

export function clientOf(url: string): pg.Client {
  const c = new pg.Client({
    connectionString: url,
    application_name: 'atrium-reference',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  c.on('error', () => {});
  return c;
}

/**
 * Brings the reference data of the data source `datasourceId` (at `targetUrl`) in step with the main database's, in
 * one transaction of the data source, read from one snapshot of the main database. Once per cluster: the transaction
 * first takes the data source's advisory lock (`wait`: waits for it; else a server finding it taken answers
 * `ran: false` and tries again later, when the copy it would have made is usually there). `include`: a tenant being
 * moved there, whose row is copied whatever the epochs say (it is not bound yet).
 */
export async function syncReference(
  mainUrl: string,
  targetUrl: string,
  datasourceId: string,
  opts: { include?: string; wait?: boolean } = {},
): Promise<SyncResult> {
  const started = Date.now();
  const a = clientOf(mainUrl);
  const b = clientOf(targetUrl);
  await Promise.all([a.connect(), b.connect()]);
  try {
    await b.query('begin');
    const key = String(jobLockKey('tenant-reference', datasourceId));
    if (opts.wait) await b.query('select pg_advisory_xact_lock($1::bigint)', [key]);
    else if (!(await b.query('select pg_try_advisory_xact_lock($1::bigint) as ok', [key])).rows[0].ok) {
      await b.query('rollback');
      return { ran: false, tables: [], rows: 0, ms: Date.now() - started };
    }
    // The rows come from a consistent snapshot: no trigger of the data source's, no foreign-key check.
    await b.query('set local session_replication_role = replica');
    await a.query('begin isolation level repeatable read read only');
    const epochs = await epochsOf(a, 'ref:');
    const held = await epochsOf(b, 'synced:');
    const bound = await a.query<{ id: string }>(
      `select tenant_id as id from tenant where datasource_id = $1 and is_deleted = 0`,
      [datasourceId],
    );
    const tenants = [PLATFORM_TENANT, ...bound.rows.map((r) => r.id), ...(opts.include ? [opts.include] : [])];
    const copied: string[] = [];
    let rows = 0;
    for (const table of TABLES) {
      const epoch = epochs.get(table) ?? '0';
      if (held.get(table) === epoch && !(table === 'tenant' && opts.include)) continue;
      rows += await copyTable(a, b, table, table === 'menu' ? [PLATFORM_TENANT] : table === 'tenant' ? tenants : null);
      await b.query(
        `insert into cache_epoch (scope, epoch) values ($1, $2) on conflict (scope) do update set epoch = excluded.epoch`,
        [`synced:${table}`, epoch],
      );
      copied.push(table);
    }
    await b.query('commit');
    await a.query('commit');
    return { ran: true, tables: copied, rows, ms: Date.now() - started };
  } catch (err) {
    await b.query('rollback').catch(() => {});
    throw err;
  } finally {
    await Promise.all([a.end().catch(() => {}), b.end().catch(() => {})]);
  }
}

/** The epochs of one prefix of cache_epoch, by table. */
async function epochsOf(c: pg.Client, prefix: string): Promise<Map<string, string>> {
  const r = await c.query<{ scope: string; epoch: string }>(
    `select scope, epoch::text as epoch from cache_epoch where scope like $1`,
    [`${prefix}%`],
  );
  return new Map(r.rows.map((x) => [x.scope.slice(prefix.length), x.epoch]));
}

/**
 * One table's rows (of the tenants `tenants`, or all with null) replaced on `b` by `a`'s, COPY both ways. Answers the
 * rows copied. Generated columns are left out (computed again).
 */
export async function copyTable(a: pg.Client, b: pg.Client, table: string, tenants: string[] | null): Promise<number> {
  const cols = (
    await a.query<{ c: string }>(
      `select attname as c from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
      [`"${table}"`],
    )
  ).rows.map((r) => `"${r.c}"`);
  // COPY takes no parameters: the ids are written as literals (quotes doubled).
  const where = tenants ? ` where tenant_id in (${tenants.map((t) => `'${t.replaceAll("'", "''")}'`).join(', ')})` : '';
  await b.query(`delete from "${table}"${where}`);
  const out = a.query(copyTo(`copy (select ${cols.join(', ')} from "${table}"${where}) to stdout`));
  const into = b.query(copyFrom(`copy "${table}" (${cols.join(', ')}) from stdin`));
  await pipeline(out, into);
  return into.rowCount;
}
