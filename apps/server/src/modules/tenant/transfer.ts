import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { sql } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import { connectionStringOf, selectArrays, selectRows, type Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { globalTables, tenantTableList } from '../../db/schema/tables.ts';
import { PLATFORM_TENANT } from '../../platform/access.ts';
import { badRequest } from '../../platform/errors.ts';
import { tenantTexts as texts } from './messages.ts';

/**
 * A tenant's data as one stream and back (docs/tenants.md "Export format"): every tenant table of the schema registry
 * (`tenantTableList`), read in one REPEATABLE READ read-only transaction, written as NDJSON lines — a header, then per
 * table its columns, its rows (arrays of PostgreSQL text values, null for NULL) and a count — and a trailer. Nothing
 * holds the whole tenant in memory: rows go out as they are read, and an import writes them as they arrive.
 */
export const EXPORT_FORMAT = 'atrium-tenant-export';
export const EXPORT_VERSION = 1;

export type ExportHeader = {
  format: typeof EXPORT_FORMAT;
  version: number;
  /** The newest applied migration (its `created_at`): an import needs the same. */
  migration: string;
  tenantId: string;
  exportedAt: string;
  tables: string[];
};
/** One row: the columns' PostgreSQL text values in the section's column order. */
type Row = (string | null)[];
/** What an export or import did. */
export type TransferSummary = { tables: number; rows: number; perTable: Record<string, number> };

/** Where an export's text goes (whole lines, several at a time): resolves when more may be written. */
export type LineSink = (text: string) => Promise<void>;

/** A tenant table as the database has it: its stored (not generated) columns, in order. */
export type TableInfo = { name: string; columns: string[] };

/** Rows per statement of the embedded database's reads and batched inserts. */
const EMBEDDED_BATCH = 2000;
const MIGRATION_SQL = 'select coalesce(max(created_at), 0)::text as newest from drizzle.__drizzle_migrations';
/** The tenant context of a transaction, local to it (what withTenant sets, platform/tenant-db.ts). */
const CONTEXT_SQL = `select set_config('app.tenant_id', $1, true)`;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
function checkTenantId(tenantId: string) {
  if (!/^\d{6,12}$/.test(tenantId)) throw new Error('tenant transfer: malformed tenant id');
}

export type Query = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * The tenant tables in an order where a table comes after those it references (foreign keys), with their stored
 * columns — from the schema registry, checked against the database: a table carrying `tenant_id` that is neither in
 * the registry nor declared global (or a registry table the database lacks) stops the transfer, so no table is ever
 * left out silently.
 */
export async function tenantTablesOf(q: Query): Promise<TableInfo[]> {
  const registry = tenantTableList().map((t) => t.name);
  const catalog = await q(`select c.relname as name,
      json_agg(a.attname order by a.attnum) filter (where a.attgenerated = '') as columns,
      bool_or(a.attname = 'tenant_id') as tenant
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where n.nspname = 'public' and c.relkind = 'r' group by c.relname`);
  const columns = new Map(catalog.filter((r) => r.tenant).map((r) => [String(r.name), r.columns as string[]]));
  const unknown = [...columns.keys()].filter((n) => !registry.includes(n) && !globalTables.has(n));
  const missing = registry.filter((n) => !columns.has(n));
  if (unknown.length || missing.length)
    throw new Error(
      `tenant transfer: the schema registry and the database disagree (not in the registry: ${unknown.join(', ') || '-'}; not in the database: ${missing.join(', ') || '-'})`,
    );
  const edges = await q(`select c.relname as child, p.relname as parent from pg_constraint k
      join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace where k.contype = 'f' and n.nspname = 'public'`);
  const parents = new Map<string, string[]>();
  for (const e of edges) {
    const [child, parent] = [String(e.child), String(e.parent)];
    if (child !== parent) parents.set(child, [...(parents.get(child) ?? []), parent]);
  }
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name) || !registry.includes(name)) return;
    path.add(name);
    for (const p of parents.get(name) ?? []) visit(p, path);
    ordered.push(name);
  };
  for (const name of registry) visit(name, new Set());
  return ordered.map((name) => ({ name, columns: columns.get(name)! }));
}

// ---------------------------------------------------------------------------------------------------------------
// COPY's text format (PostgreSQL: tab-separated, \N for NULL, backslash escapes)

const DECODE: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** One field of a COPY text line as its value. */
function decodeField(f: string): string | null {
  if (f === '\\N') return null;
  if (!f.includes('\\')) return f;
  return f.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_all, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return DECODE[e] ?? e;
  });
}
/** A value as a field of a COPY text line. */
function encodeField(v: string | null): string {
  if (v === null) return '\\N';
  return /[\\\n\r\t]/.test(v)
    ? v.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'))
    : v;
}

// ---------------------------------------------------------------------------------------------------------------
// Export

/** A consistent read of one tenant: the catalog, the migration id, and each table's rows in batches. */
type Source = {
  query: Query;
  /** The newest applied migration (read before the role changes: atrium_app does not read drizzle's table). */
  migration: string;
  /** Calls `each` with the table's rows (as JSON lines text, one batch at a time); answers the row count. */
  rows(table: TableInfo, each: (lines: string) => Promise<void>): Promise<number>;
};

/**
 * Writes the tenant's export to `sink`: every line is JSON (docs/tenants.md "Export format"). PostgreSQL: a
 * connection of its own (not one of the pool's) in a REPEATABLE READ READ ONLY transaction, each table read with
 * `COPY (select …) TO STDOUT` under the tenant's row-level security; PGlite: one transaction, pages by `ctid`.
 */
export async function exportTenant(db: Db, tenantId: string, sink: LineSink): Promise<TransferSummary> {
  checkTenantId(tenantId);
  return withSource(db, tenantId, async (src) => {
    const tables = await tenantTablesOf(src.query);
    const header: ExportHeader = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      migration: src.migration,
      tenantId,
      exportedAt: new Date().toISOString(),
      tables: tables.map((t) => t.name),
    };
    await sink(`${JSON.stringify(header)}\n`);
    const perTable: Record<string, number> = {};
    let rows = 0;
    for (const t of tables) {
      await sink(`${JSON.stringify({ table: t.name, columns: t.columns })}\n`);
      const n = await src.rows(t, sink);
      await sink(`${JSON.stringify({ end: t.name, rows: n })}\n`);
      perTable[t.name] = n;
      rows += n;
    }
    await sink(`${JSON.stringify({ end: true, tables: tables.length, rows })}\n`);
    return { tables: tables.length, rows, perTable };
  });
}

const selectOf = (t: TableInfo, tenantId: string) =>
  `select ${t.columns.map(ident).join(', ')} from ${ident(t.name)} where tenant_id = '${tenantId}'`;

async function withSource<T>(db: Db, tenantId: string, fn: (src: Source) => Promise<T>): Promise<T> {
  const url = connectionStringOf(db);
  if (url) {
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => {});
    await c.connect();
    try {
      await c.query('begin isolation level repeatable read read only');
      const migration = String((await c.query(MIGRATION_SQL)).rows[0].newest);
      await c.query(`${CONTEXT_SQL}, set_config('role', 'atrium_app', true)`, [tenantId]);
      const query: Query = async (text, values) => (await c.query(text, values)).rows;
      const out = await fn({ query, migration, rows: (t, each) => copyOut(c, selectOf(t, tenantId), each) });
      await c.query('commit');
      return out;
    } finally {
      await c.end().catch(() => {});
    }
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw('set transaction isolation level repeatable read, read only'));
    const [{ newest }] = await rowsOf<{ newest: string }>(tx, sql.raw(MIGRATION_SQL));
    await tx.execute(
      sql`select set_config('app.tenant_id', ${tenantId}, true), set_config('role', 'atrium_app', true)`,
    );
    const query: Query = (text, values) => selectRows(tx, { text, values: values ?? [] });
    return fn({ query, migration: String(newest), rows: (t, each) => pagesOut(tx, t, tenantId, each) });
  });
}

/** A table's rows by `COPY … TO STDOUT`, turned into JSON lines chunk by chunk (the stream waits for the sink). */
async function copyOut(c: pg.Client, select: string, each: (lines: string) => Promise<void>): Promise<number> {
  const stream = c.query(copyTo(`copy (${select}) to stdout`));
  let rest = '';
  let n = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const text = rest + chunk.toString('utf8');
    const cut = text.lastIndexOf('\n');
    if (cut < 0) {
      rest = text;
      continue;
    }
    rest = text.slice(cut + 1);
    const lines = text.slice(0, cut).split('\n');
    let out = '';
    for (const line of lines) out += `${JSON.stringify(line.split('\t').map(decodeField))}\n`;
    n += lines.length;
    await each(out);
  }
  if (rest) throw new Error('tenant export: COPY ended inside a row');
  return n;
}

/** A table's rows on the embedded database: pages in `ctid` order, every value read as text. */
async function pagesOut(tx: Db, t: TableInfo, tenantId: string, each: (lines: string) => Promise<void>) {
  const cols = t.columns.map((c) => `${ident(c)}::text`).join(', ');
  const text = `select ctid::text, ${cols} from ${ident(t.name)} where tenant_id = $1 and ctid > $2::tid order by ctid limit ${EMBEDDED_BATCH}`;
  let last = '(0,0)';
  let n = 0;
  for (;;) {
    const page = await selectArrays(tx, { text, values: [tenantId, last] });
    if (!page.length) return n;
    let out = '';
    for (const r of page) out += `${JSON.stringify(r.slice(1))}\n`;
    n += page.length;
    last = String(page[page.length - 1][0]);
    await each(out);
    if (page.length < EMBEDDED_BATCH) return n;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Import

/** Where an import writes: one transaction with triggers and foreign-key checks off (session_replication_role). */
type Target = {
  query: Query;
  /** Opens a table's bulk write; `add` takes rows in column order, `end` finishes it. */
  open(t: TableInfo): Promise<{ add(rows: Row[]): Promise<void>; end(): Promise<void> }>;
};

export type ImportOptions = {
  /** Delete the tenant's rows first (else a tenant holding rows refuses the import). */
  replace?: boolean;
};

/**
 * Reads an export's lines (docs/tenants.md "Export format") into the tenant, in one transaction: all rows or none.
 * Refused with a 400 before anything is written: another format or version, another schema migration, another
 * tenant, a tenant that holds rows (unless `replace`); and whole (rolled back) on a damaged or cut-short file.
 * PostgreSQL: `COPY … FROM STDIN` per table on a connection of its own; PGlite: batched inserts. Triggers and
 * foreign-key checks are off while it writes (`session_replication_role = replica`, which needs a superuser or the
 * right to set it): the rows come from a consistent snapshot, and the statistics counters come with them.
 */
export async function importTenant(
  db: Db,
  tenantId: string,
  lines: AsyncIterable<string>,
  opts: ImportOptions = {},
): Promise<TransferSummary> {
  checkTenantId(tenantId);
  if (tenantId === PLATFORM_TENANT) throw badRequest(texts.importPlatform);
  const it = lines[Symbol.asyncIterator]();
  let lineNo = 0;
  const next = async (): Promise<unknown> => {
    const r = await it.next();
    lineNo++;
    if (r.done) throw badRequest(fill(texts.importBroken, { line: lineNo }));
    try {
      return JSON.parse(r.value);
    } catch {
      throw badRequest(fill(texts.importBroken, { line: lineNo }));
    }
  };
  const first = await it.next().catch(() => ({ done: true, value: '' }));
  lineNo = 1;
  let header: Partial<ExportHeader> | undefined;
  try {
    header = first.done ? undefined : (JSON.parse(first.value as string) as Partial<ExportHeader>);
  } catch {
    header = undefined;
  }
  if (!header || header.format !== EXPORT_FORMAT) throw badRequest(texts.importNotExport);
  if (header.version !== EXPORT_VERSION)
    throw badRequest(fill(texts.importVersion, { found: String(header.version), expected: EXPORT_VERSION }));
  const [{ newest }] = await rowsOf<{ newest: string }>(db, sql.raw(MIGRATION_SQL));
  if (String(header.migration) !== String(newest))
    throw badRequest(fill(texts.importMigration, { found: String(header.migration), expected: String(newest) }));
  if (header.tenantId !== tenantId) throw badRequest(fill(texts.importTenant, { found: String(header.tenantId) }));

  return withTarget(db, tenantId, async (target) => {
    const tables = await tenantTablesOf(target.query);
    const byName = new Map(tables.map((t) => [t.name, t]));
    await clearOrRefuse(target, tables, tenantId, !!opts.replace);
    const broken = () => badRequest(fill(texts.importBroken, { line: lineNo }));
    const perTable: Record<string, number> = {};
    let total = 0;
    for (;;) {
      const line = (await next()) as { table?: string; columns?: string[]; end?: unknown; rows?: number };
      if (line.end === true) {
        if (line.rows !== total) throw broken();
        break;
      }
      const t = line.table ? byName.get(line.table) : undefined;
      if (!t || perTable[t.name] !== undefined || JSON.stringify(line.columns) !== JSON.stringify(t.columns))
        throw broken();
      const tenantAt = t.columns.indexOf('tenant_id');
      const writer = await target.open(t);
      let n = 0;
      let batch: Row[] = [];
      for (;;) {
        const row = await next();
        if (!Array.isArray(row)) {
          const end = row as { end?: string; rows?: number };
          if (end.end !== t.name || end.rows !== n) throw broken();
          break;
        }
        if (row.length !== t.columns.length || row.some((v) => v !== null && typeof v !== 'string')) throw broken();
        // The file may hold this tenant's rows only.
        if (row[tenantAt] !== tenantId) throw badRequest(fill(texts.importTenant, { found: String(row[tenantAt]) }));
        batch.push(row as Row);
        n++;
        if (batch.length >= EMBEDDED_BATCH) {
          await writer.add(batch);
          batch = [];
        }
      }
      if (batch.length) await writer.add(batch);
      await writer.end();
      perTable[t.name] = n;
      total += n;
    }
    // Triggers were off: the caches and the live state of every server learn of the tenant's new rows now.
    await target.query(`set local session_replication_role = origin`);
    await target.query(
      `insert into cache_epoch (scope, epoch) values ($1, 1) on conflict (scope) do update set epoch = cache_epoch.epoch + 1`,
      [tenantId],
    );
    await target.query(`select pg_notify('atrium_live', 't:' || $1::text)`, [tenantId]);
    return { tables: Object.keys(perTable).length, rows: total, perTable };
  });
}

/** A tenant holding rows refuses the import, unless it replaces them: then they are deleted first. */
async function clearOrRefuse(target: Target, tables: TableInfo[], tenantId: string, replace: boolean) {
  const held = await target.query(
    `select ${tables.map((t) => `exists (select 1 from ${ident(t.name)} where tenant_id = $1)`).join(' or ')} as held`,
    [tenantId],
  );
  if (!held[0]?.held) return;
  if (!replace) throw badRequest(texts.importNotEmpty);
  for (const t of [...tables].reverse())
    await target.query(`delete from ${ident(t.name)} where tenant_id = $1`, [tenantId]);
}

async function withTarget<T>(db: Db, tenantId: string, fn: (target: Target) => Promise<T>): Promise<T> {
  const url = connectionStringOf(db);
  if (url) {
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => {});
    await c.connect();
    let open: ReturnType<typeof copyIn> | undefined;
    try {
      await c.query('begin');
      await c.query('set local session_replication_role = replica');
      await c.query(CONTEXT_SQL, [tenantId]);
      const query: Query = async (text, values) => (await c.query(text, values)).rows;
      const out = await fn({
        query,
        open: async (t) => {
          const w = copyIn(c, t);
          open = w;
          return w;
        },
      });
      await c.query('commit');
      return out;
    } catch (e) {
      // A COPY in progress is failed first (CopyFail), else the connection would wait for its data.
      await open?.abort();
      await c.query('rollback').catch(() => {});
      throw e;
    } finally {
      await c.end().catch(() => {});
    }
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw('set local session_replication_role = replica'));
    await tx.execute(sql`select set_config('app.tenant_id', ${tenantId}, true)`);
    const query: Query = (text, values) => selectRows(tx, { text, values: values ?? [] });
    return fn({ query, open: async (t) => insertsIn(tx, t) });
  });
}

/** A table's rows written by `COPY … FROM STDIN` (the stream's back-pressure is waited for). */
function copyIn(c: pg.Client, t: TableInfo) {
  const stream = c.query(copyFrom(`copy ${ident(t.name)} (${t.columns.map(ident).join(', ')}) from stdin`));
  let finished = false;
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  }).finally(() => (finished = true));
  done.catch(() => {});
  return {
    async abort() {
      if (finished) return;
      stream.destroy(new Error('tenant import aborted'));
      await done.catch(() => {});
    },
    async add(rows: Row[]) {
      let text = '';
      for (const r of rows) text += `${r.map(encodeField).join('\t')}\n`;
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), done]);
    },
    async end() {
      stream.end();
      await done;
    },
  };
}

/** A table's rows on the embedded database: multi-row inserts, text values cast by the columns' types. */
function insertsIn(tx: Db, t: TableInfo) {
  const cols = `insert into ${ident(t.name)} (${t.columns.map(ident).join(', ')}) values `;
  const width = t.columns.length;
  // At most ~30,000 parameters a statement (PostgreSQL's limit is 65,535).
  const perStatement = Math.max(1, Math.floor(30_000 / width));
  return {
    async add(rows: Row[]) {
      for (let i = 0; i < rows.length; i += perStatement) {
        const part = rows.slice(i, i + perStatement);
        const values = part.flat();
        const tuples = part.map((_, r) => `(${t.columns.map((__, c) => `$${r * width + c + 1}`).join(', ')})`);
        await selectArrays(tx, { text: cols + tuples.join(', '), values });
      }
    },
    async end() {},
  };
}

/**
 * Deletes every row of the tenant's tables in one transaction (the tenant record itself stays, on the main database):
 * the source's side of a move, or a test's "drop the tenant". Answers the rows deleted.
 */
export async function deleteTenantRows(
  db: Db,
  tenantId: string,
  also?: (q: Query) => Promise<unknown>,
): Promise<number> {
  checkTenantId(tenantId);
  if (tenantId === PLATFORM_TENANT) throw badRequest(texts.importPlatform);
  return withTarget(db, tenantId, async (target) => {
    const tables = await tenantTablesOf(target.query);
    let n = 0;
    for (const t of [...tables].reverse()) {
      const r = await target.query(
        `with d as (delete from ${ident(t.name)} where tenant_id = $1 returning 1) select count(*)::int as n from d`,
        [tenantId],
      );
      n += Number(r[0].n);
    }
    await target.query(`set local session_replication_role = origin`);
    await target.query(
      `insert into cache_epoch (scope, epoch) values ($1, 1) on conflict (scope) do update set epoch = cache_epoch.epoch + 1`,
      [tenantId],
    );
    await target.query(`select pg_notify('atrium_live', 't:' || $1::text)`, [tenantId]);
    // Work of the caller in the same transaction (a move records the tenant's binding with the deletion).
    await also?.(target.query);
    return n;
  });
}
