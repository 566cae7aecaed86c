import { and, asc, eq, getTableColumns, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { fill, MAX_ID, msg, type Msg } from '@atrium/contract';
import { type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { selectArrays, type Db, type Statement } from '../db/client.ts';
import { renderSql, sqlName } from '../db/render.ts';
import { newId } from '../db/ids.ts';
import { auditLog } from '../db/schema/index.ts';
import { ok } from './envelope.ts';
import { AppError, badRequest, forbidden, notFound, texts, type Text } from './errors.ts';
import { apiRuleMatches, apiRules, dataScopeOf, dataScopeSql, type ScopeResource, type ScopeShape } from './access.ts';
import { requireAuth } from './guard.ts';
import { envelopeSchema, fjsCompiler, pageSchema } from './response.ts';
import { parseListQuery, toPage, type ListRules } from './paging.ts';
import type { Services } from './services.ts';
import { bumpEpoch, epochScopeOf } from './live.ts';
import { readTenant, withTenant } from './tenant-db.ts';
import { arrayRowReader, type ArrayRowReader } from './shapes.ts';
import { platformTexts } from './messages.ts';
import type { AuthContext } from './tokens.ts';
import { toTree } from './tree.ts';
import { rowsOf } from '../db/rows.ts';

/** The columns the factory relies on: every record has them (docs/system-api.md "Envelope"); tenant tables also carry tenantId. */
type Columns = {
  id: PgColumn;
  isDeleted: PgColumn;
  version: PgColumn;
  status: PgColumn;
  createUser: PgColumn;
  createDept: PgColumn;
  createTime: PgColumn;
  updateUser: PgColumn;
  updateTime: PgColumn;
};
export type CrudTable = PgTable & Columns & { tenantId?: PgColumn };
/** A table's columns by property name, for any table. */
export const tableColumns = (t: PgTable): Record<string, PgColumn> => getTableColumns(t);
export type Row = Record<string, unknown> & { id: string; version: number };

/** A numeric id that a bigint column can hold (at most 2^63−1): anything else is a 400, never a database error. */
const inRange = (s: string) => /^\d{1,19}$/.test(s) && BigInt(s) <= MAX_ID;
const idString = (message: string) => z.string().refine(inRange, message);
export const idParam = z
  .union([idString('must be a numeric id'), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)])
  .transform(String);
/** A parent id: '0' is the root. */
export const parentParam = z
  .union([idString('must be a numeric id'), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform(String);
export const idList = z
  .string()
  .trim()
  .min(1, 'ids is required')
  .max(20000)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(idString('ids must be numeric')).min(1).max(1000));
/** Ids in a JSON body: an array of ids or a comma list. */
export const idArray = z
  .union([
    z.array(idParam),
    z
      .string()
      .max(20000)
      .transform((s) =>
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
  ])
  .pipe(z.array(idString('ids must be numeric')).max(5000));

export type CrudSpec<B extends z.ZodObject> = {
  /** Entity name used in audit records and messages. */
  entity: string;
  table: CrudTable;
  /** e.g. '/api/blade-system/post' */
  base: string;
  /** Permission codes: list/detail need `view`, insert `add`, update `edit`, remove `remove`. */
  codes: { view: string; add: string; edit: string; remove: string };
  /** The fields a client may submit (never id, tenantId, isDeleted, audit columns). */
  body: B;
  list: ListRules;
  /** Names a list path other than 'list' (e.g. 'page'). */
  listPath?: string;
  /** Inserts go to `POST <base>/<createPath>`; `submit` then only updates (docs/resources.md "What a definition says"). */
  createPath?: string;
  /** A global table (declared with its reason in db/schema/tables.ts): no tenant column, no tenant filter. */
  global?: boolean;
  /** true: every route is the platform administrator's; 'write': only submit and remove are. */
  platform?: boolean | 'write';
  /** Data scope (docs/system-api.md "Permissions"): how rows map to owners and departments. Columns for custom rules come from list.filters. */
  scope?: Omit<ScopeResource, 'columns'>;
  /**
   * The 400 of a save whose row would fall outside the caller's data scope (default the catalogue's `outsideScope`):
   * a record is added or moved only inside its writer's data scope (docs/system-api.md "Permissions").
   */
  outsideScope?: Msg;
  /**
   * Rows that follow another resource's data scope (a client's follow-ups follow the client's): the caller's
   * condition on this table, undefined = every row of the tenant. Replaces `scope` (docs/resources.md "Hooks").
   */
  scopeFrom?: (auth: AuthContext) => Promise<SQL | undefined>;
  /** A tree table: adds lazy-list (one level of records + hasChildren), tree and lazy-tree (nodes). */
  tree?: {
    parentId: PgColumn;
    /** record field shown as the node title */ title: string;
    sort?: PgColumn;
    /** rows that are nodes of `tree` / `lazy-tree` (e.g. menus, not buttons) */ nodes?: SQL;
    /** which tree routes to register (default all three) */ routes?: ('lazy-list' | 'tree' | 'lazy-tree')[];
    /** further codes that may read the tree (e.g. the user screen's department picker) */ readAlso?: string[];
  };
  /** Unique-index name → the field and text to show when it is violated. */
  unique?: Record<string, { field: string; text: Text }>;
  /** List parameters the module interprets itself (e.g. users' deptId = that department and below). */
  listParams?: Record<string, (ctx: ListParamContext) => SQL>;
  /**
   * An exact total kept elsewhere for a list with no filter but the data scope — counters maintained in the same
   * transactions as the rows, read in the list's snapshot (docs/server.md "Totals from counters"); undefined: the rows
   * are counted. Given the scope's shape (every row of the tenant, or one region prefix).
   */
  total?: (ctx: TotalContext) => SQL | undefined;
  /** Adds what a screen shows beside a record (names of linked rows), for list and detail, batched per page. */
  decorate?: (ctx: DecorateContext) => Promise<Record<string, unknown>[]>;
  /** Drops what must never leave the server. */
  present?: (row: Row) => Record<string, unknown>;
  /** Rules that refuse a save (throw AppError) or adjust the values written. */
  /**
   * Slow work of a save done before its transaction opens (hashing a password: no connection waits on the CPU);
   * what it answers is put into `state` for beforeSave and afterSave. `id`: the record updated, none on insert.
   */
  prepareSave?: (ctx: PrepareSaveContext<z.infer<B>>) => Promise<Record<string, unknown> | void>;
  beforeSave?: (ctx: SaveContext<z.infer<B>>) => Promise<Record<string, unknown> | void>;
  /** Work in the same transaction after a save (provisioning, link tables); its result is merged into the answer. */
  afterSave?: (ctx: SaveContext<z.infer<B>> & { row: Row }) => Promise<Record<string, unknown> | void>;
  /** Rules that refuse a removal, e.g. "still in use". */
  beforeRemove?: (ctx: RemoveContext) => Promise<void>;
  /** After a committed removal (e.g. end the sessions of removed users). */
  afterRemove?: (ctx: AfterRemoveContext) => Promise<void>;
  /** After any committed write. (Cached reads need nothing: a write to a table that feeds them moves its cache epoch.) */
  afterWrite?: (ctx: WriteContext) => void;
  /** Field labels, so a validation message names the field, never its key. */
  labels?: Record<string, Msg>;
  /** JSON schema of one answered record: list, detail and submit answers are serialized from it (an allowlist). */
  response?: Record<string, unknown>;
  /** Fields taken on insert only. */
  createOnly?: string[];
  /** The body fields that are columns of the table (the rest are kept by hooks); absent: all of them. */
  writable?: string[];
  /** The shared tree rules (parent visible, no cycle, children block removal), with their messages. */
  treeRules?: { parentMissing: Msg; cycle: Msg; hasChildren: Msg };
  /** List and detail (and tree reads) only: no submit, remove or add call (docs/resources.md "Read-only resources"). */
  readOnly?: boolean;
  /**
   * Secret fields (docs/resources.md "Secrets"): an absent or empty value, or the mask, is "not sent" — the stored
   * value stays; `reveal: 'insert'` answers the value sent on insert once.
   */
  secrets?: { name: string; mask?: string; reveal?: 'insert' }[];
  /** Values an insert takes for the fields its body leaves out (the definition's `default`). */
  defaults?: Record<string, unknown>;
};

/*
 * The hooks' contexts (docs/resources.md "Hooks"): every hook takes one object, its members named alike — `tx` the
 * transaction, `auth` the caller, `input` the body, `ids` the ids named, `rows` the records concerned.
 */

/** `scope`: the caller's data-scope filter for this resource (undefined = all), e.g. to check a parent is visible. */
/** `state`: per-request values a module hands from beforeSave to afterSave. */
export type SaveContext<T> = {
  tx: Db;
  auth: AuthContext;
  input: T;
  existing: Row | null;
  scope?: SQL;
  state: Record<string, unknown>;
};
/** A save before its transaction: `id` is the record updated, none on insert. */
export type PrepareSaveContext<T> = { auth: AuthContext; input: T; id?: string };
/** A removal inside its transaction: the ids named (each once) and their records. */
export type RemoveContext = { tx: Db; auth: AuthContext; ids: string[]; rows: Row[] };
/** After a committed removal. */
export type AfterRemoveContext = { auth: AuthContext; ids: string[] };
/** After any committed write. */
export type WriteContext = { auth: AuthContext };
/** The records of a list page or a detail, to decorate. */
export type DecorateContext = { tx: Db; auth: AuthContext; rows: Record<string, unknown>[] };
/** A list parameter the module interprets: its value (trimmed, a numeric id). */
export type ListParamContext = { value: string; auth: AuthContext };
/** A list filtered by its data scope only: the scope's shape. */
export type TotalContext = { auth: AuthContext; shape: ScopeShape };

const stale = () => new AppError(409, texts.stale);

/** Maps a unique-constraint violation to the field it concerns. */
export function uniqueError(err: unknown, unique?: Record<string, { field: string; text: Text }>): AppError | null {
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    const pgErr = e as { code?: string; constraint?: string; constraint_name?: string };
    if (pgErr.code === '23505') {
      const name = pgErr.constraint ?? pgErr.constraint_name ?? '';
      const u = unique?.[name];
      return u ? badRequest(u.text, [{ field: u.field, message: u.text }]) : badRequest(texts.exists);
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export function writeAudit(
  s: Services,
  tx: Db,
  auth: AuthContext,
  requestId: string,
  entity: string,
  action: string,
  entityId: string,
  before: unknown,
  after: unknown,
) {
  return tx.insert(auditLog).values({
    id: newId(),
    tenantId: auth.tenantId,
    userId: auth.userId,
    action,
    entity,
    entityId,
    before: before == null ? null : JSON.stringify(before),
    after: after == null ? null : JSON.stringify(after),
    requestId,
    createTime: s.now(),
  });
}

/**
 * What a table's rows are read as: its columns' text for a select list and a reader of the driver's rows (keyed by
 * property, values mapped: what drizzle's select would give), both made once per table.
 */
type RowReader = { list: SQL; listText: string; table: string; id: string; read: ArrayRowReader };
const rowReaders = new WeakMap<CrudTable, RowReader>();
function rowReaderOf(t: CrudTable): RowReader {
  const known = rowReaders.get(t);
  if (known) return known;
  const columns = Object.entries(getTableColumns(t));
  const text = columns.map(([, c]) => sqlName(c)).join(', ');
  const reader = {
    list: sql.raw(text),
    listText: text,
    table: sqlName(t),
    id: sqlName(t.id),
    read: arrayRowReader(columns),
  };
  rowReaders.set(t, reader);
  return reader;
}

/**
 * The text of a page + total statement. The filter is rendered once and written twice with the same parameters (the
 * total's count and the page); drizzle rendering it twice cost ≈ 12 µs more per list. When the order or a total kept
 * by counters carries parameters of its own, drizzle renders the whole statement (the numbering is its own then).
 */
function pageStatement(
  t: CrudTable,
  reader: RowReader,
  w: SQL,
  order: SQL,
  offset: number,
  size: number,
  totalOf?: SQL,
): Statement {
  const f = renderSql(w);
  const o = renderSql(order);
  const c = totalOf && renderSql(totalOf);
  if (o.params.length || c?.params.length) {
    const total = sql`(${totalOf ?? sql`select count(*) from ${t} where ${w}`}) as "__total"`;
    const whole = renderSql(
      offset === 0
        ? sql`select ${total}, ${reader.list} from ${t} where ${w} order by ${order} limit ${size}`
        : sql`select ${total}, ${reader.list} from ${t} inner join (select ${t.id} as "__page_id" from ${t} where ${w}
          order by ${order} limit ${size} offset ${offset}) "page_ids" on ${t.id} = "page_ids"."__page_id"
          order by ${order}`,
    );
    return { text: whole.sql, values: whole.params };
  }
  const n = f.params.length;
  const from = reader.table;
  const total = `(${c ? c.sql : `select count(*) from ${from} where ${f.sql}`}) as "__total"`;
  if (offset === 0)
    return {
      text: `select ${total}, ${reader.listText} from ${from} where ${f.sql} order by ${o.sql} limit $${n + 1}`,
      values: [...f.params, size],
    };
  return {
    text:
      `select ${total}, ${reader.listText} from ${from} inner join (select ${reader.id} as "__page_id" from ${from} ` +
      `where ${f.sql} order by ${o.sql} limit $${n + 1} offset $${n + 2}) "page_ids" on ${reader.id} = ` +
      `"page_ids"."__page_id" order by ${o.sql}`,
    values: [...f.params, size, offset],
  };
}

/**
 * The statement of a list's page with its total (text and values), as `pageOf` sends it: the first column is the
 * total, then the table's select list. bench/bare-list.ts sends the same statement without the server around it.
 */
export function listPageStatement(
  t: CrudTable,
  where: SQL,
  orderBy: SQL[],
  q: { current: number; size: number },
  totalOf?: SQL,
): Statement {
  const order = sql.join(orderBy, sql`, `);
  return pageStatement(t, rowReaderOf(t), where, order, (q.current - 1) * q.size, q.size, totalOf);
}

/**
 * A page and the total in one statement, one round trip (docs/server.md "Round trips"): the total is a scalar subquery
 * beside the page's rows. A later page takes its ids first (from an index when one holds the filter and the order),
 * then those rows — not every matching row sorted to skip the first ones. A page past the end asks the total alone.
 *
 * The statement is a template over the table's select list made once per table (docs/server.md "Round trips"): drizzle's
 * query builder took ≈ 0.4 ms per list to make the same text.
 */
async function pageOf(
  tx: Db,
  t: CrudTable,
  where: SQL | undefined,
  orderBy: SQL[],
  q: { current: number; size: number },
  totalOf?: SQL,
): Promise<{ rows: Row[]; n: number }> {
  const reader = rowReaderOf(t);
  const w = where ?? sql`true`;
  const offset = (q.current - 1) * q.size;
  const counted = totalOf ?? sql`select count(*) from ${t} where ${w}`;
  const statement = listPageStatement(t, w, orderBy, q, totalOf);
  const rows = await selectArrays(tx, statement);
  if (rows.length) return { rows: rows.map((r) => reader.read(r, 1) as Row), n: Number(rows[0][0]) };
  if (offset === 0) return { rows: [], n: 0 };
  const counts = await rowsOf<{ n: unknown }>(tx, sql`select (${counted}) as n`);
  return { rows: [], n: Number(counts[0]?.n ?? 0) };
}

export type CrudService = ReturnType<typeof crudService>;

/**
 * What a service's calls share, built once per service (docs/server.md "The CRUD factory"): the table, the tenant and
 * live-row filters, the data scope, and the transactions its reads and writes run in.
 */
type CrudContext<B extends z.ZodObject> = ReturnType<typeof crudContext<B>>;

function crudContext<B extends z.ZodObject>(s: Services, spec: CrudSpec<B>) {
  const t = spec.table;
  const tenantCol = spec.global ? undefined : t.tenantId;
  if (!spec.global && !tenantCol)
    throw new Error(`crud ${spec.entity}: a tenant table needs tenantId (or declare it global)`);
  const mine = (auth: AuthContext) => (tenantCol ? eq(tenantCol, auth.tenantId) : undefined);
  const live = (auth: AuthContext, ...extra: (SQL | undefined)[]) => and(mine(auth), eq(t.isDeleted, 0), ...extra);
  const present = (row: Row) => (spec.present ? spec.present(row) : row);
  const scopeColumns = Object.fromEntries(
    Object.entries(spec.list.filters).map(([k, f]) => [k, { column: f.column, kind: f.kind ?? 'text' }]),
  );
  if (spec.scope)
    s.registry.scopeResources.set(
      spec.scope.code,
      Object.fromEntries(Object.entries(scopeColumns).map(([k, c]) => [k, c.kind])),
    );
  /** The caller's data scope for this resource (computed before the transaction: it reads through the cache). */
  const scopeOf = async (auth: AuthContext) =>
    spec.scopeFrom
      ? spec.scopeFrom(auth)
      : spec.scope
        ? dataScopeSql(s, auth, { ...spec.scope, columns: scopeColumns })
        : undefined;
  // Other modules read a resource's rows inside the same scope (a report over devices): docs/server.md "Registries".
  if (spec.scope) (s.registry.scopeReaders ??= new Map()).set(spec.scope.code, scopeOf);
  /** The data scope with its shape, for a list that may take its total from counters (`spec.total`). */
  const scopeShapeOf = async (auth: AuthContext): Promise<{ where: SQL | undefined; shape: ScopeShape }> => {
    if (spec.scopeFrom) {
      const where = await spec.scopeFrom(auth);
      return { where, shape: where ? { all: false, regionPrefix: null } : { all: true } };
    }
    return spec.scope
      ? dataScopeOf(s, auth, { ...spec.scope, columns: scopeColumns })
      : { where: undefined, shape: { all: true } };
  };
  const run = <T>(auth: AuthContext, fn: (tx: Db) => Promise<T>) => withTenant(s.db, auth.tenantId, fn);
  /**
   * A record is added or moved only inside its writer's data scope (docs/system-api.md "Permissions"): the row as
   * written must be visible through the scope, else the save is a 400 and its transaction rolls back — before the
   * module's afterSave, so nothing hangs off a refused row (a client's approval, a device's answer).
   */
  const keepInScope = async (tx: Db, id: string, scope: SQL | undefined) => {
    if (!scope) return;
    const [visible] = await tx
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.id, id), scope));
    if (!visible) throw badRequest(spec.outsideScope ?? texts.outsideScope);
  };
  /** Lists and details only read: a read-only transaction, fewer round trips on PostgreSQL (tenant-db.ts). */
  const read = <T>(auth: AuthContext, fn: (tx: Db) => Promise<T>, single = false) =>
    readTenant(s.db, auth.tenantId, fn, auth.liveCheck, { single });
  /** A write to a table that feeds the caches moves its epoch in the write's own transaction (platform/live.ts). */
  const write = async <T>(auth: AuthContext, fn: (tx: Db) => Promise<T>) => {
    const scope = epochScopeOf(t, auth.tenantId);
    const result = await run(auth, async (tx) => {
      const out = await fn(tx);
      if (scope) await bumpEpoch(tx, scope);
      return out;
    });
    if (scope) s.cache.clear(scope);
    return result;
  };
  return { s, spec, t, tenantCol, mine, live, present, scopeOf, scopeShapeOf, run, keepInScope, read, write };
}

/**
 * The CRUD service of a definition: its calls are the functions below, each given the context built once here
 * (docs/server.md "The CRUD factory").
 */
export function crudService<B extends z.ZodObject>(s: Services, spec: CrudSpec<B>) {
  const c = crudContext(s, spec);
  return {
    spec,
    scopeOf: c.scopeOf,
    list: (auth: AuthContext, query: Record<string, unknown>, extra?: SQL) => listRecords(c, auth, query, extra),
    detail: (auth: AuthContext, id: string) => detailRecord(c, auth, id),
    /** No id → insert; with id → update of a visible record, checked against `version` when sent. */
    submit: (auth: AuthContext, raw: z.infer<B> & { id?: string; version?: number }, requestId: string) =>
      submitRecord(c, auth, raw, requestId),
    /** Soft-deletes all the ids or none: one id that is not the caller's (or not visible) makes it a 404. */
    remove: (auth: AuthContext, ids: string[], requestId: string) => removeRecords(c, auth, ids, requestId),
    /** One level of a tree table: records under `parentId` with `hasChildren`; filters (if any) search the whole tree. */
    lazyList: (auth: AuthContext, query: Record<string, unknown>, extra?: SQL) => lazyListOf(c, auth, query, extra),
    /** The whole visible tree as nodes. */
    tree: (auth: AuthContext, extra?: SQL) => treeOf(c, auth, extra),
    /** One level of nodes under `parentId`, with `hasChildren`. */
    lazyTree: (auth: AuthContext, parentId: string, extra?: SQL) => lazyTreeOf(c, auth, parentId, extra),
  };
}

async function listRecords<B extends z.ZodObject>(
  c: CrudContext<B>,
  auth: AuthContext,
  query: Record<string, unknown>,
  extra?: SQL,
) {
  const { spec, t } = c;
  const own = spec.listParams ?? {};
  const q = parseListQuery(query, spec.list, Object.keys(own));
  const params = Object.entries(own).map(([k, f]) => {
    const v = query[k] == null ? '' : String(query[k]).trim();
    if (!v) return undefined;
    if (!/^\d{1,19}$/.test(v)) {
      const m = fill(platformTexts.idParam, { name: k });
      throw badRequest(m, [{ field: k, message: m }]);
    }
    return f({ value: v, auth });
  });
  const { where: scope, shape } = await c.scopeShapeOf(auth);
  // Only the data scope filters the list: a total kept by counters may stand for counting the rows.
  const unfiltered = !q.where && !extra && params.every((p) => p === undefined);
  const totalOf = spec.total && unfiltered ? spec.total({ auth, shape }) : undefined;
  return c.read(
    auth,
    async (tx) => {
      const where = c.live(auth, q.where, scope, extra, ...params);
      const order = q.orderBy.length ? q.orderBy : [sql`${t.id} desc`];
      const { rows, n } = await pageOf(tx, t, where, order, q, totalOf);
      const records = (rows as Row[]).map(c.present);
      return toPage(spec.decorate && records.length ? await spec.decorate({ tx, auth, rows: records }) : records, n, q);
      // A first page without decorations is one statement: its commit goes out with it (db/client.ts).
    },
    q.current === 1 && !spec.decorate,
  );
}

async function detailRecord<B extends z.ZodObject>(c: CrudContext<B>, auth: AuthContext, id: string) {
  const { spec, t } = c;
  const scope = await c.scopeOf(auth);
  return c.read(auth, async (tx) => {
    const [row] = await tx
      .select()
      .from(t)
      .where(c.live(auth, eq(t.id, id), scope));
    if (!row) throw notFound();
    const one = c.present(row as Row);
    return spec.decorate ? (await spec.decorate({ tx, auth, rows: [one] }))[0] : one;
  });
}

/** What a save's insert or update is given: the body as the save sees it, the data scope, the hooks' state. */
type SaveRequest<B extends z.ZodObject> = {
  auth: AuthContext;
  input: z.infer<B>;
  scope?: SQL;
  state: Record<string, unknown>;
  requestId: string;
};

async function submitRecord<B extends z.ZodObject>(
  c: CrudContext<B>,
  auth: AuthContext,
  raw: z.infer<B> & { id?: string; version?: number },
  requestId: string,
) {
  const { spec } = c;
  const { id, version, ...sent } = raw;
  const input = received(spec, sent, !id) as z.infer<B>;
  const scope = await c.scopeOf(auth);
  const state: Record<string, unknown> = { ...(await spec.prepareSave?.({ auth, input, id })) };
  const req: SaveRequest<B> = { auth, input, scope, state, requestId };
  try {
    const saved = await c.write(auth, (tx) => (id ? updateRecord(c, tx, req, id, version) : insertRecord(c, tx, req)));
    spec.afterWrite?.({ auth });
    return saved;
  } catch (err) {
    throw uniqueError(err, spec.unique) ?? err;
  }
}

async function insertRecord<B extends z.ZodObject>(c: CrudContext<B>, tx: Db, req: SaveRequest<B>) {
  const { s, spec, t } = c;
  const { auth, input, scope, state, requestId } = req;
  const now = s.now();
  await checkParent(c, tx, auth, input as Record<string, unknown>, null, scope);
  const extra = (await spec.beforeSave?.({ tx, auth, input, existing: null, scope, state })) ?? {};
  const values = {
    ...columnsOf(c, input as Record<string, unknown>, false),
    ...extra,
    id: newId(),
    ...(c.tenantCol ? { tenantId: auth.tenantId } : {}),
    createUser: auth.userId,
    createDept: auth.deptId,
    createTime: now,
    updateUser: auth.userId,
    updateTime: now,
    isDeleted: 0,
    version: 1,
  };
  // The factory writes any table: the values were checked against the table's columns at bind time.
  const [row] = await tx
    .insert(t)
    // drizzle cannot type an insert into a table known only as CrudTable (the values are checked at bind time).
    .values(values as never)
    .returning();
  await c.keepInScope(tx, (row as Row).id as string, scope);
  const after = (await spec.afterSave?.({ tx, auth, input, existing: null, row: row as Row, scope, state })) ?? {};
  await writeAudit(s, tx, auth, requestId, spec.entity, 'insert', (row as Row).id, null, c.present(row as Row));
  return { ...c.present(row as Row), ...revealed(spec, input as Record<string, unknown>), ...after };
}

async function updateRecord<B extends z.ZodObject>(
  c: CrudContext<B>,
  tx: Db,
  req: SaveRequest<B>,
  id: string,
  version: number | undefined,
) {
  const { s, spec, t } = c;
  const { auth, input, scope, state, requestId } = req;
  const now = s.now();
  const [existing] = await tx
    .select()
    .from(t)
    .where(c.live(auth, eq(t.id, id), scope));
  if (!existing) throw notFound();
  const ex = existing as Row;
  if (version !== undefined && version !== ex.version) throw stale();
  await checkParent(c, tx, auth, input as Record<string, unknown>, ex, scope);
  const extra = (await spec.beforeSave?.({ tx, auth, input, existing: ex, scope, state })) ?? {};
  const [row] = await tx
    .update(t)
    // drizzle cannot type the set of a table known only as CrudTable (the columns are checked at bind time).
    .set({
      ...columnsOf(c, input as Record<string, unknown>, true),
      ...extra,
      updateUser: auth.userId,
      updateTime: now,
      version: sql`${t.version} + 1`,
    } as never)
    .where(and(eq(t.id, id), c.mine(auth), eq(t.version, ex.version)))
    .returning();
  if (!row) throw stale();
  await c.keepInScope(tx, id, scope);
  const after = (await spec.afterSave?.({ tx, auth, input, existing: ex, row: row as Row, scope, state })) ?? {};
  await writeAudit(s, tx, auth, requestId, spec.entity, 'update', id, c.present(ex), c.present(row as Row));
  return { ...c.present(row as Row), ...after };
}

async function removeRecords<B extends z.ZodObject>(
  c: CrudContext<B>,
  auth: AuthContext,
  ids: string[],
  requestId: string,
) {
  const { s, spec, t } = c;
  const unique = [...new Set(ids)];
  const scope = await c.scopeOf(auth);
  const done = await c.write(auth, async (tx) => {
    const rows = (await tx
      .select()
      .from(t)
      .where(c.live(auth, inArray(t.id, unique), scope))) as Row[];
    if (rows.length !== unique.length) throw notFound();
    if (spec.tree && spec.treeRules) {
      const [kid] = await tx
        .select({ id: t.id })
        .from(t)
        .where(and(c.mine(auth), eq(t.isDeleted, 0), inArray(spec.tree.parentId, unique), notInArray(t.id, unique)))
        .limit(1);
      if (kid) throw badRequest(spec.treeRules.hasChildren);
    }
    await spec.beforeRemove?.({ tx, auth, ids: unique, rows });
    await tx
      .update(t)
      // drizzle cannot type the set of a table known only as CrudTable (every CrudTable has these columns).
      .set({ isDeleted: 1, updateUser: auth.userId, updateTime: s.now(), version: sql`${t.version} + 1` } as never)
      .where(and(inArray(t.id, unique), c.mine(auth)));
    for (const r of rows) await writeAudit(s, tx, auth, requestId, spec.entity, 'delete', r.id, c.present(r), null);
    return true;
  });
  await spec.afterRemove?.({ auth, ids: unique });
  spec.afterWrite?.({ auth });
  return done;
}

async function lazyListOf<B extends z.ZodObject>(
  c: CrudContext<B>,
  auth: AuthContext,
  query: Record<string, unknown>,
  extra?: SQL,
) {
  const { spec, t } = c;
  const tree = spec.tree!;
  const { parentId, ...rest } = query;
  const q = parseListQuery(rest, spec.list);
  const scope = await c.scopeOf(auth);
  const parent = parentId === undefined || parentId === '' ? (q.where ? undefined : '0') : parentOf(parentId);
  return c.read(auth, async (tx) => {
    const rows = (await tx
      .select()
      .from(t)
      .where(c.live(auth, q.where, scope, extra, parent === undefined ? undefined : eq(tree.parentId, parent)))
      .orderBy(...(q.orderBy.length ? q.orderBy : [asc(tree.sort ?? t.id), asc(t.id)]))
      .limit(5000)) as Row[];
    const withKids = await childParents(
      c,
      tx,
      auth,
      rows.map((r) => r.id),
      scope,
      extra,
    );
    return rows.map((r) => ({ ...c.present(r), hasChildren: withKids.has(r.id) }));
  });
}

async function treeOf<B extends z.ZodObject>(c: CrudContext<B>, auth: AuthContext, extra?: SQL) {
  const { spec, t } = c;
  const tree = spec.tree!;
  const scope = await c.scopeOf(auth);
  const rows = (await c.run(auth, (tx) =>
    tx
      .select()
      .from(t)
      .where(c.live(auth, scope, extra))
      .orderBy(asc(tree.sort ?? t.id), asc(t.id)),
  )) as Row[];
  return toTree(rows as (Row & { parentId: string })[], (r) => String(r[tree.title] ?? ''));
}

async function lazyTreeOf<B extends z.ZodObject>(c: CrudContext<B>, auth: AuthContext, parentId: string, extra?: SQL) {
  const { spec, t } = c;
  const tree = spec.tree!;
  const scope = await c.scopeOf(auth);
  return c.read(auth, async (tx) => {
    const rows = (await tx
      .select()
      .from(t)
      .where(c.live(auth, scope, extra, eq(tree.parentId, parentId)))
      .orderBy(asc(tree.sort ?? t.id), asc(t.id))) as (Row & { parentId: string })[];
    const withKids = await childParents(
      c,
      tx,
      auth,
      rows.map((r) => r.id),
      scope,
      extra,
    );
    return rows.map((r) => ({
      id: r.id,
      parentId: r.parentId,
      title: String(r[tree.title] ?? ''),
      key: r.id,
      value: r.id,
      hasChildren: withKids.has(r.id),
      children: [],
    }));
  });
}

async function childParents<B extends z.ZodObject>(
  c: CrudContext<B>,
  tx: Db,
  auth: AuthContext,
  ids: string[],
  scope?: SQL,
  extra?: SQL,
): Promise<Set<string>> {
  if (!ids.length || !c.spec.tree) return new Set();
  const p = c.spec.tree.parentId;
  const rows = await tx
    .selectDistinct({ parentId: p })
    .from(c.t)
    .where(c.live(auth, scope, extra, inArray(p, ids)));
  return new Set(rows.map((r) => String(r.parentId)));
}

/**
 * The body as the save sees it: secrets not sent (absent, empty, the mask) dropped, and on insert the definition's
 * defaults for the fields left out.
 */
function received<B extends z.ZodObject>(
  spec: CrudSpec<B>,
  sent: Record<string, unknown>,
  insert: boolean,
): Record<string, unknown> {
  const out = { ...sent };
  for (const f of spec.secrets ?? []) {
    const v = out[f.name];
    if (v === undefined || v === null || v === '' || (f.mask !== undefined && v === f.mask)) delete out[f.name];
  }
  if (insert) for (const [k, v] of Object.entries(spec.defaults ?? {})) if (out[k] === undefined) out[k] = v;
  return out;
}

/** The secrets an insert's answer carries once (`reveal: 'insert'`): the values sent. */
function revealed<B extends z.ZodObject>(spec: CrudSpec<B>, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of spec.secrets ?? [])
    if (f.reveal === 'insert' && typeof input[f.name] === 'string') out[f.name] = input[f.name];
  return out;
}

/** The body's values that are columns: fields kept elsewhere are the hooks' business; null never clears a NOT NULL column. */
function columnsOf<B extends z.ZodObject>(
  c: CrudContext<B>,
  input: Record<string, unknown>,
  update: boolean,
): Record<string, unknown> {
  const { spec, t } = c;
  if (!spec.writable) return input;
  const out: Record<string, unknown> = {};
  for (const name of spec.writable) {
    if (!(name in input) || (update && spec.createOnly?.includes(name))) continue;
    const v = input[name];
    if (v === null && tableColumns(t)[name].notNull) continue;
    out[name] = v;
  }
  return out;
}

/** Tree rules: the parent is a visible live record, and never the record itself or one of its descendants. */
async function checkParent<B extends z.ZodObject>(
  c: CrudContext<B>,
  tx: Db,
  auth: AuthContext,
  input: Record<string, unknown>,
  existing: Row | null,
  scope?: SQL,
) {
  const { spec, t } = c;
  const tree = spec.tree;
  const rules = spec.treeRules;
  if (!tree || !rules) return;
  const parentField = Object.entries(tableColumns(t)).find(([, col]) => col === tree.parentId)?.[0];
  // A parent taken on insert only is never written by an update: nothing to check then.
  if (existing && parentField && spec.createOnly?.includes(parentField)) return;
  const parentId = parentField ? input[parentField] : undefined;
  if (parentId === undefined || parentId === null || parentId === '' || parentId === '0') return;
  const field = parentField!;
  let at = String(parentId);
  for (let depth = 0; depth < 64; depth++) {
    if (existing && at === existing.id) throw badRequest(rules.cycle, [{ field, message: rules.cycle }]);
    const [p] = await tx
      .select({ parentId: tree.parentId })
      .from(t)
      .where(c.live(auth, eq(t.id, at), depth === 0 ? scope : undefined));
    if (!p) {
      if (depth === 0) throw badRequest(rules.parentMissing, [{ field, message: rules.parentMissing }]);
      return;
    }
    at = String(p.parentId);
    if (at === '0') return;
  }
}

/** Registers list / detail / submit / remove (and the tree calls of a tree table), each behind its permission code. */
export function crudRoutes<B extends z.ZodObject>(root: FastifyInstance, s: Services, spec: CrudSpec<B>) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const svc = crudService(s, spec);
  const tags = [spec.entity];
  const submitBody = spec.body.extend({
    id: idParam.optional(),
    version: z.coerce.number().int().positive().optional(),
  });
  const readPlatform = spec.platform === true;
  const writePlatform = !!spec.platform;
  const labels = spec.labels;
  const read = { permission: spec.codes.view, platform: readPlatform, labels, liveInRead: true };
  // Answers serialized from the record's schema: an allowlist, and faster than JSON.stringify.
  const record = spec.response;
  const answer = (data: () => unknown) => (record ? { response: { 200: envelopeSchema(data()) } } : {});
  const compiled = record ? { serializerCompiler: fjsCompiler } : {};

  app.get(
    `${spec.base}/${spec.listPath ?? 'list'}`,
    {
      config: read,
      schema: { tags, querystring: z.record(z.string(), z.unknown()), ...answer(() => pageSchema(record!)) },
      ...compiled,
    },
    async (req) => ok(await svc.list(requireAuth(req), rawQuery(req))),
  );
  app.get(
    `${spec.base}/detail`,
    {
      config: read,
      schema: { tags, querystring: z.object({ id: idParam }), ...answer(() => record) },
      ...compiled,
    },
    async (req) => ok(await svc.detail(requireAuth(req), req.query.id)),
  );
  // A read-only resource registers no write route (docs/resources.md "Read-only resources").
  const writer = spec.readOnly ? undefined : app;
  const createPath = spec.createPath;
  if (createPath) {
    // A separate add call: the body of a new record (an id sent is dropped with the other unknown keys).
    writer?.post(
      `${spec.base}/${createPath}`,
      {
        config: { permission: spec.codes.add, platform: writePlatform, labels },
        schema: { tags, body: spec.body, ...answer(() => record) },
        ...compiled,
      },
      async (req) => ok(await svc.submit(requireAuth(req), req.body as z.infer<B>, req.id), texts.added),
    );
  }
  writer?.post(
    `${spec.base}/submit`,
    {
      config: {
        permission: createPath ? spec.codes.edit : [spec.codes.add, spec.codes.edit],
        platform: writePlatform,
        labels,
      },
      schema: { tags, body: submitBody, ...answer(() => record) },
      ...compiled,
    },
    async (req) => {
      const auth = requireAuth(req);
      const body = req.body as z.infer<B> & { id?: string; version?: number };
      if (createPath && !body.id) throw badRequest(msg('updateNeedsId', { path: `${spec.base}/${createPath}` }));
      // The guard let in holders of either code; an insert needs add, an update needs edit.
      await requireCode(s, req, body.id ? spec.codes.edit : spec.codes.add);
      const saved = await svc.submit(auth, body, req.id);
      return ok(saved, body.id ? texts.updated : texts.added);
    },
  );
  writer?.post(
    `${spec.base}/remove`,
    {
      config: { permission: spec.codes.remove, platform: writePlatform },
      schema: { tags, querystring: z.object({ ids: idList }) },
    },
    async (req) => ok(await svc.remove(requireAuth(req), req.query.ids, req.id), texts.deleted),
  );
  const treeRoutes = new Set(spec.tree?.routes ?? ['lazy-list', 'tree', 'lazy-tree']);
  const treeRead = { permission: [spec.codes.view, ...(spec.tree?.readAlso ?? [])], platform: readPlatform };
  if (spec.tree && treeRoutes.has('lazy-list')) {
    app.get(
      `${spec.base}/lazy-list`,
      { config: read, schema: { tags, querystring: z.record(z.string(), z.unknown()) } },
      async (req) => ok(await svc.lazyList(requireAuth(req), rawQuery(req))),
    );
  }
  if (spec.tree && treeRoutes.has('tree')) {
    app.get(
      `${spec.base}/tree`,
      { config: treeRead, schema: { tags, querystring: z.object({ tenantId: z.string().max(12).optional() }) } },
      async (req) => ok(await svc.tree(requireAuth(req), spec.tree?.nodes)),
    );
  }
  if (spec.tree && treeRoutes.has('lazy-tree')) {
    app.get(
      `${spec.base}/lazy-tree`,
      {
        config: treeRead,
        schema: {
          tags,
          querystring: z.object({ parentId: parentParam.default('0'), tenantId: z.string().max(12).optional() }),
        },
      },
      async (req) => ok(await svc.lazyTree(requireAuth(req), req.query.parentId, spec.tree?.nodes)),
    );
  }
  return svc;
}

/** A parent id from a query: the root '0' or an id in range, else a 400 naming the parameter. */
function parentOf(value: unknown): string {
  const parsed = parentParam.safeParse(value);
  if (!parsed.success)
    throw badRequest(msg('notId', { label: { zh: 'parentId', en: 'parentId' } }), [
      { field: 'parentId', message: msg('notId', { label: { zh: 'parentId', en: 'parentId' } }) },
    ]);
  return parsed.data;
}

/**
 * A list's query exactly as sent: the framework's parser quietly drops names such as `__proto__`, and a filter that
 * was sent must be applied or refused, never ignored.
 */
export function rawQuery(req: FastifyRequest): Record<string, unknown> {
  const i = req.url.indexOf('?');
  return i < 0 ? {} : Object.fromEntries(new URLSearchParams(req.url.slice(i + 1)));
}

/** For a route open to several codes: the one this call needs (or an API scope granting the call). */
export async function requireCode(s: Services, req: FastifyRequest, code: string) {
  const auth = requireAuth(req);
  const codes = await s.permissionCodes(auth.tenantId, auth.roleIds);
  if (codes.has(code)) return;
  const route = req.routeOptions.url ?? req.url.split('?')[0];
  if (apiRuleMatches(await apiRules(s, auth.tenantId, auth.roleIds), req.method, route, [code])) return;
  throw forbidden(code);
}
