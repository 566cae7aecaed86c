import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, type PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { picker } from './shapes.ts';
import {
  actionCode,
  bodySchema,
  codesOf,
  decodeMsg,
  fieldSchema,
  idListSchema,
  idSchema,
  msg,
  RECORD_COLUMNS,
  type ActionDef,
  type FieldDef,
  type Msg,
  type ResourceDef,
} from '@atrium/contract';
import type { Db } from '../db/client.ts';
import {
  crudRoutes,
  writeAudit,
  type CrudService,
  type CrudSpec,
  type AfterRemoveContext,
  type CrudTable,
  tableColumns,
  type DecorateContext,
  type RemoveContext,
  type Row,
  type SaveContext,
  type WriteContext,
} from './crud.ts';
import { dictChecked, dictMisses, refuseDictMisses, type DictMiss } from './dictionaries.ts';
import { ok } from './envelope.ts';
import { AppError, badRequest, notFound, texts, type FieldError } from './errors.ts';
import { requireAuth } from './guard.ts';
import type { Filter, ValueKind } from './paging.ts';
import { parseDateInput } from './paging.ts';
import { type JsonSchema } from './response.ts';
import type { Services } from './services.ts';
import { bumpEpoch, epochScopeOf } from './live.ts';
import { withTenant } from './tenant-db.ts';
import type { AuthContext } from './tokens.ts';

/**
 * Binding a resource definition (packages/contract/src/resources) to a table (docs/resources.md "Server"): routes,
 * bodies, answers, filters, sorts, codes, unique messages, tree rules and actions all follow from the definition;
 * a module adds only its hooks.
 */

/** Field names that must be columns of the table: every field except virtual ones and those kept elsewhere. */
type ColumnFields<F> = {
  [K in keyof F]: F[K] extends { virtual: true } ? never : F[K] extends { column: false } ? never : K;
}[keyof F];

type Input<F extends Record<string, FieldDef>> = { [K in keyof F]?: unknown } & Record<string, unknown>;

/** What an action's hook gets: the visible records (checked for state and version), the input, the transaction. */
export type ActionContext<F extends Record<string, FieldDef>> = {
  tx: Db;
  auth: AuthContext;
  rows: Row[];
  input: Input<F> & Record<string, unknown>;
  requestId: string;
  /** What the action's `prepare` read before the transaction (cached reads that open their own). */
  prepared: unknown;
};

/**
 * `data`: the answer's data (default true). `changed`: the hook wrote the records, so their version moves on.
 * `after`: work after the commit (e.g. end sessions).
 */
export type ActionResult = { data?: unknown; changed?: boolean; after?: () => Promise<void> };

/** Who may act on existing records: the records an update, a removal or an action (`op`: its name) touches. */
export type GuardContext = { tx: Db; auth: AuthContext; rows: Row[]; op: string };
/** An action's work before its transaction: `targets` the ids the call names (not yet checked), its input. */
export type PrepareContext = { auth: AuthContext; targets: string[]; input: Record<string, unknown> };
/** A representative record made inside a transaction of the caller's tenant. */
export type FixtureContext = { tx: Db; auth: AuthContext };

export type Hooks<F extends Record<string, FieldDef>> = {
  beforeSave?: (ctx: SaveContext<Input<F>>) => Promise<Record<string, unknown> | void>;
  afterSave?: (ctx: SaveContext<Input<F>> & { row: Row }) => Promise<Record<string, unknown> | void>;
  beforeRemove?: (ctx: RemoveContext) => Promise<void>;
  afterRemove?: (ctx: AfterRemoveContext) => Promise<void>;
  afterWrite?: (ctx: WriteContext) => void;
  /** Fills the virtual fields (names of linked rows) for list and detail, batched per page. */
  decorate?: (ctx: DecorateContext) => Promise<Record<string, unknown>[]>;
  /** List parameters the module interprets itself (e.g. users' deptId = that department and below). */
  listParams?: CrudSpec<z.ZodObject>['listParams'];
  /**
   * Owner, department, region and client columns of the data scope (default create_user / create_dept / the
   * table's region_code and client_id, if it has them).
   */
  scope?: { owner: PgColumn; dept: PgColumn; region?: PgColumn; client?: PgColumn };
  /** The 400 of a save whose row falls outside the caller's data scope (CrudSpec `outsideScope`). */
  outsideScope?: Msg;
  /**
   * Rows that follow another resource's data scope (a client's follow-ups follow the client's): the caller's
   * condition on this table, undefined = every row of the tenant. The definition then has no `dataScope` of its own.
   */
  scopeFrom?: CrudSpec<z.ZodObject>['scopeFrom'];
  /** An exact total for a list filtered by its data scope only (CrudSpec `total`, docs/server.md "Totals from counters"). */
  total?: CrudSpec<z.ZodObject>['total'];
  /** Rows of the table that are nodes of `tree` / `lazy-tree`. */
  treeNodes?: SQL;
  /**
   * Fields stored in a column other than their kind's (docs/resources.md "Kinds and columns"), each with that
   * column's type: the module reads and writes them itself (e.g. settings parsed as an object into `jsonb`).
   */
  columnTypes?: Partial<Record<keyof F, string>>;
  /** Answered properties that are neither fields nor record columns (e.g. a tree's ancestors). */
  output?: Record<string, JsonSchema>;
  /**
   * Work of an action done before its transaction: reads that open their own transaction (cached lookups — the
   * embedded database has one connection and a nested one would wait for ever), and slow CPU such as hashing
   * passwords (no connection waits on it). `targets`: the ids the call names, not yet checked.
   */
  prepare?: Partial<Record<string, (ctx: PrepareContext) => Promise<unknown>>>;
  /** Slow work of a save before its transaction (e.g. hashing a password); its answer lands in `state`. */
  prepareSave?: CrudSpec<z.ZodObject>['prepareSave'];
  /**
   * Who may act on existing records: called inside the transaction on the records an update, a removal or any
   * action touches, before the module's own hooks (e.g. users and roles: only a caller covering what they hold).
   */
  guard?: (ctx: GuardContext) => Promise<void>;
  /**
   * A representative record made the way the business makes it, for a resource that cannot be created by submit
   * (`create: false`, `readOnly`): the generated conformance and isolation suites run on it. Answers the new record's id.
   */
  fixture?: (ctx: FixtureContext) => Promise<string>;
  /** The work of each action (besides moving the state), inside its transaction. */
  actions?: Partial<Record<string, (ctx: ActionContext<F>) => Promise<ActionResult | void>>>;
};

export type Binding = {
  def: ResourceDef;
  table: CrudTable;
  spec: CrudSpec<z.ZodObject>;
  /** Column widths of text fields (the body's length limits). */
  widths: Record<string, number>;
  hooks: Hooks<Record<string, FieldDef>>;
};

const textKinds = new Set(['text', 'textarea', 'secret', 'upload', 'region']);

const TEXT_COLUMNS = ['varchar', 'text', 'char'];
const INT_COLUMNS = ['integer', 'smallint'];

/**
 * The column types a field of each kind may be stored in (docs/resources.md "Kinds and columns"): what its body
 * value is written as and what its answer is read as. `date` is a string-mode date (a day, `YYYY-MM-DD` both ways),
 * `datetime` an instant (a Date-mode timestamp with time zone).
 */
export function columnTypesOf(f: FieldDef): string[] {
  switch (f.kind) {
    case 'text':
    case 'textarea':
    case 'secret':
    case 'upload':
    case 'region':
      return TEXT_COLUMNS;
    case 'int':
    case 'switch':
      return INT_COLUMNS;
    case 'decimal':
      return ['numeric', 'real', 'double precision'];
    case 'date':
      return ['date (string mode)'];
    case 'datetime':
      return ['timestamp with time zone (date mode)'];
    case 'dict':
      return f.keys === 'int' && !f.multiple ? INT_COLUMNS : TEXT_COLUMNS;
    case 'ref':
      return f.multiple ? TEXT_COLUMNS : ['bigint'];
  }
}

/** A column's type in the words of `columnTypesOf`. */
export function columnTypeOf(col: PgColumn): string {
  const type = col.getSQLType().replace(/\(.*\)$/, '');
  if (type === 'date') return col.columnType === 'PgDateString' ? 'date (string mode)' : 'date (date mode)';
  if (type.startsWith('timestamp'))
    return `${type} (${col.columnType === 'PgTimestampString' ? 'string' : 'date'} mode)`;
  return type;
}

function valueKind(f: FieldDef): ValueKind {
  if (f.kind === 'int' || f.kind === 'switch') return 'int';
  if (f.kind === 'decimal') return 'decimal';
  if (f.kind === 'date') return 'day';
  if (f.kind === 'datetime') return 'date';
  if (f.kind === 'ref') return 'id';
  if (f.kind === 'dict') return f.keys === 'int' && !f.multiple ? 'int' : 'text';
  return 'text';
}

/** The JSON schema of one answered value of a field. */
function jsonOf(f: FieldDef): JsonSchema {
  const nullable = (type: string, extra: JsonSchema = {}) => ({ type: [type, 'null'], ...extra });
  switch (f.kind) {
    case 'int':
    case 'switch':
      return nullable('integer');
    case 'decimal':
      return nullable('number');
    case 'date':
      return nullable('string', { format: 'date' });
    case 'datetime':
      return nullable('string', { format: 'date-time' });
    case 'dict':
      return f.keys === 'int' && !f.multiple ? nullable('integer') : nullable('string');
    case 'ref':
      return f.multiple ? {} : nullable('string');
    default:
      return nullable('string');
  }
}

const RECORD_JSON: Record<(typeof RECORD_COLUMNS)[number], JsonSchema> = {
  id: { type: 'string' },
  tenantId: { type: ['string', 'null'] },
  createUser: { type: ['string', 'null'] },
  createDept: { type: ['string', 'null'] },
  createTime: { type: ['string', 'null'], format: 'date-time' },
  updateUser: { type: ['string', 'null'] },
  updateTime: { type: ['string', 'null'], format: 'date-time' },
  status: { type: ['integer', 'null'] },
  isDeleted: { type: ['integer', 'null'] },
  version: { type: 'integer' },
};

/** The answered shape of a record: the record columns, the readable fields, the hooks' extra output. */
export function recordSchema(def: ResourceDef, output: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...RECORD_JSON };
  // A secret is answered only as its mask, or once as the value of an insert (`reveal`): a string then.
  for (const [name, f] of Object.entries(def.fields))
    if (f.kind !== 'secret') properties[name] = jsonOf(f);
    else if (f.mask !== undefined || f.reveal) properties[name] = { type: 'string' };
  if (def.tree) properties.hasChildren = { type: 'boolean' };
  return { type: 'object', properties: { ...properties, ...output } };
}

/**
 * Binds a definition to its table. The table must have a column for every stored field (checked by the type and
 * again at start), and a text field may not be longer than its column.
 */
export function bindResource<const F extends Record<string, FieldDef>, T extends CrudTable>(
  def: ResourceDef<F>,
  table: T & Record<ColumnFields<F>, PgColumn>,
  hooks: Hooks<F> = {},
): Binding {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const widths: Record<string, number> = {};
  const stored: string[] = [];
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.virtual || f.column === false) continue;
    const col = columns[name];
    if (!col) throw new Error(`resource ${def.code}: field ${name} has no column in ${getTableConfig(table).name}`);
    const allowed = columnTypesOf(f);
    const type = columnTypeOf(col);
    if (!allowed.includes(type) && hooks.columnTypes?.[name as keyof F] !== type)
      throw new Error(
        `resource ${def.code}: field ${name} of kind ${f.kind} is stored in ${getTableConfig(table).name}.${col.name} ` +
          `of type ${type}; a ${f.kind} field needs ${allowed.join(' or ')}`,
      );
    if (!f.readOnly) stored.push(name);
    if (textKinds.has(f.kind)) {
      const width = 'length' in col && typeof col.length === 'number' ? col.length : undefined;
      const max = 'max' in f ? f.max : undefined;
      if (width && max && max > width)
        throw new Error(`resource ${def.code}: ${name} max ${max} > column width ${width}`);
      widths[name] = max ?? width ?? 10000;
    }
  }
  const codes = codesOf(def);
  const labels = Object.fromEntries(Object.entries(def.fields).map(([k, f]) => [k, f.label]));
  const filters: Record<string, Filter> = {};
  const sorts: Record<string, PgColumn> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    const col = columns[name];
    if (!col) continue;
    // A region field's search is the region and everything below it (docs/resources.md "Search").
    const op = f.kind === 'region' && f.search === 'eq' ? 'prefix' : f.search;
    if (op) filters[name] = { column: col, op, kind: valueKind(f) };
    if (f.sort) sorts[name] = col;
  }
  sorts.createTime ??= table.createTime;
  const order = def.defaultSort?.split(' ');
  const defaultSort = order
    ? [(order[1] === 'desc' ? desc : asc)(columns[order[0]]), asc(table.id)]
    : [sql`${table.id} desc`];

  // Unique indexes → the field they concern and its message.
  const unique: Record<string, { field: string; text: Msg }> = {};
  const byColumnName = new Map(Object.entries(columns).map(([k, c]) => [c.name, k]));
  for (const index of getTableConfig(table).indexes) {
    if (!index.config.unique || !index.config.name) continue;
    const names = index.config.columns
      .map((c) => byColumnName.get((c as { name?: string }).name ?? ''))
      .filter((n): n is string => !!n && (n !== 'tenantId' || def.scope !== 'tenant'));
    const field = names.find((n) => def.fields[n]?.unique) ?? names[0];
    const f = field ? def.fields[field] : undefined;
    if (!field || !f) continue;
    unique[index.config.name] = { field, text: f.unique ?? msg('exists') };
  }

  const present = presenter(def, hooks.output);
  const tree = def.tree;
  const spec: CrudSpec<z.ZodObject> = {
    entity: def.code,
    table,
    base: def.base,
    codes: { view: codes.view, add: codes.add, edit: codes.edit, remove: codes.remove },
    body: bodySchema(def, { widths, parseDate: (v) => parseDateInput(v) }),
    list: { filters, sorts, defaultSort, createTime: def.createTimeRange === false ? undefined : table.createTime },
    listPath: def.listPath,
    createPath: def.createPath,
    global: def.scope !== 'tenant',
    platform: def.scope === 'platform' || def.platformOnly ? true : def.scope === 'global' ? 'write' : undefined,
    scope: def.dataScope
      ? {
          code: def.code,
          owner: hooks.scope?.owner ?? table.createUser,
          dept: hooks.scope?.dept ?? table.createDept,
          region: hooks.scope?.region ?? tableColumns(table).regionCode,
          client: hooks.scope?.client ?? tableColumns(table).clientId,
          regionPrefixes: regionPrefixesOf(table),
        }
      : undefined,
    outsideScope: hooks.outsideScope,
    scopeFrom: hooks.scopeFrom,
    tree: tree
      ? {
          parentId: columns[tree.parent],
          title: tree.title,
          sort: tree.sort ? columns[tree.sort] : undefined,
          nodes: hooks.treeNodes,
          routes: tree.routes,
          readAlso: tree.readAlso,
        }
      : undefined,
    treeRules: tree
      ? {
          parentMissing: tree.messages?.parentMissing ?? msg('parentNotFound'),
          cycle: tree.messages?.cycle ?? msg('treeCycle'),
          hasChildren: tree.messages?.hasChildren ?? msg('treeHasChildren'),
        }
      : undefined,
    unique,
    listParams: hooks.listParams,
    total: hooks.total,
    decorate: hooks.decorate,
    present,
    prepareSave: hooks.prepareSave,
    beforeSave: guarded(def, hooks),
    afterSave: hooks.afterSave as CrudSpec<z.ZodObject>['afterSave'],
    beforeRemove:
      hooks.guard || hooks.beforeRemove
        ? async (ctx) => {
            await hooks.guard?.({ tx: ctx.tx, auth: ctx.auth, rows: ctx.rows, op: 'remove' });
            await hooks.beforeRemove?.(ctx);
          }
        : undefined,
    afterRemove: hooks.afterRemove,
    afterWrite: hooks.afterWrite,
    labels,
    response: recordSchema(def, hooks.output),
    createOnly: Object.entries(def.fields)
      .filter(([, f]) => f.createOnly)
      .map(([k]) => k),
    writable: stored,
    readOnly: !!def.readOnly,
    secrets: Object.entries(def.fields).flatMap(([name, f]) =>
      f.kind === 'secret' ? [{ name, mask: f.mask, reveal: f.reveal }] : [],
    ),
    // Applied on insert to the fields a body leaves out (docs/resources.md "Defaults").
    defaults: Object.fromEntries(
      Object.entries(def.fields)
        .filter(([, f]) => f.default !== undefined && !f.readOnly && !f.virtual)
        .map(([k, f]) => [k, f.default]),
    ),
  };
  return { def, table, spec, widths, hooks: hooks as Hooks<Record<string, FieldDef>> };
}

/**
 * The module's beforeSave, after the guard when an existing record is updated; a resource whose records come from
 * the business (`create: false`) refuses a submit without an id.
 */
function guarded<F extends Record<string, FieldDef>>(
  def: ResourceDef<F>,
  hooks: Hooks<F>,
): CrudSpec<z.ZodObject>['beforeSave'] {
  const before = hooks.beforeSave as CrudSpec<z.ZodObject>['beforeSave'];
  const guard = hooks.guard;
  if (!guard && def.create !== false) return before;
  return async (ctx) => {
    if (!ctx.existing && def.create === false) throw badRequest(msg('createRefused'));
    if (ctx.existing && guard) await guard({ tx: ctx.tx, auth: ctx.auth, rows: [ctx.existing], op: 'update' });
    return before?.(ctx);
  };
}

/**
 * Dict values checked against their dictionaries (docs/resources.md "Dictionary values"): read through the cache
 * before the transaction (`prepareSave`), refused inside it, where the stored record is known (`beforeSave`).
 */
function withDictCheck(s: Services, binding: Binding): CrudSpec<z.ZodObject> {
  const { def, spec } = binding;
  const checked = dictChecked(def);
  if (!checked.length) return spec;
  const prepare = spec.prepareSave;
  const before = spec.beforeSave;
  const KEY = 'dictMisses';
  return {
    ...spec,
    prepareSave: async (ctx) => {
      // An update keeps createOnly fields: what it sends for them is not written, so not judged.
      const fields = ctx.id ? checked.filter(([, f]) => !f.createOnly) : checked;
      const misses = await dictMisses(s, ctx.auth.tenantId, fields, ctx.input as Record<string, unknown>);
      return { ...(await prepare?.(ctx)), [KEY]: misses };
    },
    beforeSave: async (ctx) => {
      refuseDictMisses(def, (ctx.state[KEY] as DictMiss[] | undefined) ?? [], ctx.existing);
      return before?.(ctx);
    },
  };
}

/**
 * Only what the definition allows leaves the server: record columns, readable fields, declared extras; a secret with
 * a mask is answered as the mask.
 */
function presenter(def: ResourceDef, output: Record<string, JsonSchema> = {}) {
  const keys = [
    ...RECORD_COLUMNS,
    ...Object.entries(def.fields)
      .filter(([, f]) => f.kind !== 'secret' && !f.virtual)
      .map(([k]) => k),
    ...Object.keys(output),
  ];
  const pick = picker(keys) as (row: Row) => Row;
  const masks = Object.entries(def.fields).flatMap(([k, f]) =>
    f.kind === 'secret' && f.mask !== undefined ? [[k, f.mask] as const] : [],
  );
  if (!masks.length) return pick;
  const masked = Object.fromEntries(masks);
  return (row: Row) => ({ ...pick(row), ...masked }) as Row;
}

/**
 * Registers a binding's routes: CRUD (+ tree) and its actions; the binding joins the app's registry (`s.registry.bindings`,
 * read by the generated conformance and isolation suites).
 */
export function resourceRoutes(app: FastifyInstance, s: Services, binding: Binding): CrudService {
  s.registry.bindings.set(binding.def.code, binding);
  const svc = crudRoutes(app, s, withDictCheck(s, binding));
  for (const [name, action] of Object.entries(binding.def.actions ?? {}))
    actionRoute(app, s, binding, svc, name, action);
  return svc;
}

/** Field errors of a failed parse, each in both languages, summed up in the message like a schema failure. */
function invalid(error: z.ZodError): AppError {
  const fields: FieldError[] = error.issues.map((i) => ({
    field: i.path.join('.'),
    message: decodeMsg(i.message) ?? { zh: i.message, en: i.message },
  }));
  const joined = (lang: 'zh' | 'en') =>
    fields.map((f) => (typeof f.message === 'string' ? f.message : f.message[lang])).join('; ');
  return new AppError(
    400,
    { zh: `${texts.badRequest.zh}: ${joined('zh')}`, en: `${texts.badRequest.en}: ${joined('en')}` },
    fields,
  );
}

/**
 * One action route: the preamble done once — ids checked against the caller's tenant and data scope, the allowed
 * states, the version, then the module's work and the state change in one transaction, an audit row per record,
 * and the action's message in the caller's language.
 */
function actionRoute(
  app: FastifyInstance,
  s: Services,
  binding: Binding,
  svc: CrudService,
  name: string,
  action: ActionDef,
) {
  const { def, table } = binding;
  const code = actionCode(def, name, action);
  const stateField = action.stateField ?? 'status';
  const many = action.target === 'many';
  const inputShape: Record<string, z.ZodType> = {};
  for (const [k, f] of Object.entries(action.input ?? {})) inputShape[k] = fieldSchema(f, k);
  const idField = action.idField ?? (many ? 'ids' : 'id');
  const schema = z.object({
    [idField]: many ? idListSchema() : idSchema(),
    version: z.coerce.number().int().positive().optional(),
    ...inputShape,
  });
  const labels = Object.fromEntries(Object.entries(action.input ?? {}).map(([k, f]) => [k, f.label]));
  const work = binding.hooks.actions?.[name];
  if (!work && action.to === undefined)
    throw new Error(`resource ${def.code}: action ${name} has neither a hook nor a state`);
  const mine = (auth: AuthContext) => (def.scope === 'tenant' ? eq(table.tenantId!, auth.tenantId) : undefined);

  app.post(
    `${def.base}/${action.path ?? name}`,
    {
      config: { permission: code, platform: def.scope !== 'tenant' || !!def.platformOnly, labels },
      schema: { tags: [def.code] },
    },
    async (req: FastifyRequest) => {
      const auth = requireAuth(req);
      const parsed = schema.safeParse({ ...(req.query as object), ...((req.body as object) ?? {}) });
      if (!parsed.success) throw invalid(parsed.error);
      const { [idField]: given, version, ...input } = parsed.data as Record<string, unknown> & { version?: number };
      const targets = [...new Set(many ? (given as string[]) : [given as string])];
      const scope = await svc.scopeOf(auth);
      const prepared = await binding.hooks.prepare?.[name]?.({ auth, targets, input });
      // An action on a table that feeds the caches (a role's grants) moves its epoch in the same transaction.
      const epoch = epochScopeOf(table, auth.tenantId);
      const result = await withTenant(s.db, auth.tenantId, async (tx) => {
        const rows = (await tx
          .select()
          .from(table)
          .where(and(mine(auth), eq(table.isDeleted, 0), inArray(table.id, targets), scope))
          // In id order: two actions on overlapping records lock them in the same order, never crosswise.
          .orderBy(table.id)
          .for('update')) as Row[];
        if (rows.length !== targets.length) throw notFound();
        if (!many && version !== undefined && version !== rows[0].version) throw new AppError(409, texts.stale);
        await binding.hooks.guard?.({ tx, auth, rows, op: name });
        if (action.from && rows.some((r) => !action.from!.map(String).includes(String(r[stateField]))))
          throw badRequest(action.refused ?? msg('stateRefused'));
        const done = (work ? await work({ tx, auth, rows, input, requestId: req.id, prepared }) : undefined) ?? {};
        if (action.to !== undefined || done.changed) {
          await tx
            .update(table)
            // drizzle cannot type the set of a table known only as CrudTable (the state field is checked at bind time).
            .set({
              ...(action.to !== undefined ? { [stateField]: action.to } : {}),
              updateUser: auth.userId,
              updateTime: s.now(),
              version: sql`${table.version} + 1`,
            } as never)
            .where(and(mine(auth), inArray(table.id, targets)));
        }
        for (const r of rows) {
          await writeAudit(
            s,
            tx,
            auth,
            req.id,
            def.code,
            name,
            r.id,
            { [stateField]: r[stateField] },
            { [stateField]: action.to ?? r[stateField], ...(Object.keys(input).length ? { input } : {}) },
          );
        }
        if (epoch) await bumpEpoch(tx, epoch);
        return done;
      });
      if (epoch) s.cache.clear(epoch);
      await result.after?.();
      binding.spec.afterWrite?.({ auth });
      return ok(result.data ?? true, action.done);
    },
  );
}

declare module './services.ts' {
  interface Registry {
    /** Every resource bound with its routes in this app, by code (`resourceRoutes`; docs/server.md "Registries"). */
    bindings: Map<string, Binding>;
  }
}

/** A module: a Fastify plugin that binds its resources and adds its own routes. */
export type Module = (app: FastifyInstance, s: Services) => void | Promise<void>;
export const defineModule = (m: Module) => m;

/** The region prefix columns of a table made with `regionPrefixColumns()` (db/schema/columns.ts), by length. */
function regionPrefixesOf(table: unknown): Partial<Record<number, PgColumn>> | undefined {
  const t = table as { regionP2?: PgColumn; regionP4?: PgColumn };
  return t.regionP2 && t.regionP4 ? { 2: t.regionP2, 4: t.regionP4 } : undefined;
}
