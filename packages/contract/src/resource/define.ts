/**
 * One definition per resource (docs/resources.md): plain data shared by the server and the web app. The server
 * derives routes, bodies, response allowlists, filters, sorts, permission codes and messages from it; the web app
 * derives the screen (search, table, dialog, actions) and its translations. Nothing here imports Drizzle or antd.
 */

/** A text in both languages of the console. */
export type Msg = { zh: string; en: string };

/** How a field filters a list: exact, contains, one of a comma list, or a `<name>_gte` / `<name>_lte` range. */
export type SearchOp = 'eq' | 'like' | 'in' | 'range';

type FieldCommon = {
  label: Msg;
  /**
   * The English noun of generated texts ("Enter the {noun}") when the label lower-cased is wrong (messages.ts
   * `nounOf`: acronyms and proper words are kept already).
   */
  noun?: string;
  /** Required on submit. `true` → 请输入/请选择{label}, "Enter the …" / "Select the …" by kind (`requiredText`); a Msg → that text. */
  required?: boolean | Msg;
  /** Shown and applied as a list filter. */
  search?: SearchOp;
  /** May be named in `ascs` / `descs`. */
  sort?: boolean;
  /** The message when the database's unique index on this field is violated. */
  unique?: Msg;
  /** Sent back but never accepted from a body (set by the server). */
  readOnly?: boolean;
  /** Computed for the answer (names of linked rows): not a column, never accepted from a body. */
  virtual?: boolean;
  /** Kept elsewhere (a link table): accepted in a body and answered, but written and read by the module's hooks. */
  column?: false;
  /** Accepted on insert only; an update keeps the stored value. */
  createOnly?: boolean;
  /** Default when an insert leaves the field out. */
  default?: string | number | null;
  /** The message for a value of the right type that is not accepted (default: the kind's generic text). */
  invalid?: Msg;
  /** A valid value for generated tests, when the kind alone cannot make one (refs, patterns). */
  sample?: unknown;
  /** Screen hints: none of them changes what the server accepts. */
  ui?: FieldUi;
};

export type FieldUi = {
  /** Column in the table (default true, false for textarea and secrets). */
  column?: boolean;
  /** Field in the record dialog (default true, false for read-only and virtual fields). */
  form?: boolean;
  width?: number;
  /** Not editable in the dialog (still sent when adding if `createOnly`). */
  disabled?: boolean;
  /** Shown in the view dialog only. */
  viewOnly?: boolean;
  /** The column shows this record field instead (e.g. deptName for deptId). */
  display?: string;
  placeholder?: Msg;
  /** A kind of the web's field registry other than the default one for the kind (e.g. 'icon'). */
  widget?: string;
  /** The form shows this field only when another field has one of these values. */
  showWhen?: { field: string; in: (string | number)[] };
  /** In English the column shows this field of the record instead, when it is set (a menu's `alias`). */
  english?: string;
};

export type TextField = FieldCommon & {
  kind: 'text' | 'textarea';
  /** Longest value; the server checks it against the column's width at start. */
  max?: number;
  min?: number;
  pattern?: { regex: string; message: Msg };
};
/**
 * A value that never leaves the server as stored (docs/resources.md "Secrets"). Written on insert when sent, and on
 * update only when a new value is sent: an absent or empty value, or the `mask`, keeps the stored one.
 */
export type SecretField = FieldCommon & {
  kind: 'secret';
  max?: number;
  min?: number;
  pattern?: { regex: string; message: Msg };
  /** Answers carry this text in the field's place (e.g. '******'); without it the field is never answered. */
  mask?: string;
  /**
   * `'insert'`: the insert's answer carries the value once — as sent, or as the module made it (a generated secret);
   * every later answer carries the mask. Default: never revealed.
   */
  reveal?: 'insert';
};
export type IntField = FieldCommon & { kind: 'int'; min?: number; max?: number };
export type DecimalField = FieldCommon & { kind: 'decimal'; min?: number; max?: number; scale?: number };
export type SwitchField = FieldCommon & { kind: 'switch' };
export type DateField = FieldCommon & { kind: 'date' | 'datetime' };
export type DictField = FieldCommon & {
  kind: 'dict';
  /** Dictionary code; `biz` reads the tenant's business dictionary. */
  dict: string;
  biz?: boolean;
  /** Keys are integers (stored in an integer column) or strings. */
  keys: 'int' | 'string';
  /** The values the server accepts when the dictionary is not the judge (fixed lifecycles). */
  values?: (string | number)[];
  /** Labels of fixed values, shown when the dictionary has none. */
  options?: { value: string | number; label: Msg }[];
  multiple?: boolean;
};
export type RefField = FieldCommon & {
  kind: 'ref';
  /** The referenced resource's code. */
  ref: string;
  /** Where the picker reads its options (answers records or tree nodes) and how it labels them. */
  options: { url: string; value?: string; label?: string; tree?: boolean };
  /** Several ids (a JSON array or a comma list). */
  multiple?: boolean;
  /** The id meaning "none" (a tree's root, '0'). */
  root?: string;
};
export type RegionField = FieldCommon & { kind: 'region' };
export type UploadField = FieldCommon & { kind: 'upload'; max?: number; accept?: string };

export type FieldDef =
  | TextField
  | SecretField
  | IntField
  | DecimalField
  | SwitchField
  | DateField
  | DictField
  | RefField
  | RegionField
  | UploadField;
export type FieldKind = FieldDef['kind'];

/** A state change of one or more records: allowed from some states, to one, with its own input and messages. */
export type ActionDef = {
  label: Msg;
  /** Button code; default `<code>_<action name>`. */
  code?: string;
  /** The field holding the state (default 'status'). */
  stateField?: string;
  /** States the records must be in (any state when absent). */
  from?: (string | number)[];
  /** The state written (none: the action's hook does the work). */
  to?: string | number;
  /** Extra input fields (besides ids and version). */
  input?: Record<string, FieldDef>;
  /** Asked before the call; absent → no confirmation. */
  confirm?: Msg;
  /** The success message. */
  done: Msg;
  /** Refused from another state: the message (default "当前状态不允许此操作"). */
  refused?: Msg;
  /** Acts on one record (`id`) or several (`ids`). */
  target?: 'one' | 'many';
  /** The name of the id (or ids) parameter, when the wire names it otherwise (e.g. `userIds`). */
  idField?: string;
  danger?: boolean;
  /** Path under the base (default the action's name). */
  path?: string;
};

export type TreeDef = {
  /** Field holding the parent id ('0' = root). */
  parent: string;
  /** Field shown as the node title. */
  title: string;
  sort?: string;
  /** Tree routes to offer (default all three). */
  routes?: ('lazy-list' | 'tree' | 'lazy-tree')[];
  /** Messages of the shared tree rules. */
  messages?: { parentMissing?: Msg; cycle?: Msg; hasChildren?: Msg };
  /** Further codes that may read `tree` / `lazy-tree` (a picker on another screen). */
  readAlso?: string[];
};

/** tenant: rows of one tenant (RLS); global: one set for all tenants, written by the platform administrator only; platform: the platform administrator's alone. */
export type ResourceScope = 'tenant' | 'global' | 'platform';

export type ResourceDef<F extends Record<string, FieldDef> = Record<string, FieldDef>> = {
  /** The menu / permission code: list and detail need `<code>`; buttons `<code>_add|_edit|_delete|_view`. */
  code: string;
  /** Menu group: the screen's path is `/<group>/<code>/index`. */
  group: string;
  /** e.g. '/api/blade-system/post' */
  base: string;
  label: Msg;
  scope: ResourceScope;
  fields: F;
  /** The list call under base (default 'list'). */
  listPath?: string;
  /**
   * Inserts go to `POST <base>/<createPath>` (e.g. 'save') and `submit` only updates (an id is required): for APIs
   * whose add and update are separate calls. Default: `submit` does both.
   */
  createPath?: string;
  /** Default order: a field name, optionally ' desc' (default: newest first). */
  defaultSort?: string;
  /** Creation-time range filter (`createTime_dategt` / `createTime_datelt`). Default true. */
  createTimeRange?: boolean;
  tree?: TreeDef;
  /** A tenant table that only the platform administrator manages (e.g. the platform's menus). */
  platformOnly?: boolean;
  /** Rows are filtered by the caller's data scope. */
  dataScope?: boolean;
  /**
   * `false`: records come from the business (e.g. approvals open with a registration), never from a submit without
   * an id — the server refuses it and the screen offers no 新增.
   */
  create?: false;
  actions?: Record<string, ActionDef>;
  /** Permission-code overrides (when the seeded menu differs from the convention). */
  codes?: Partial<ResourceCodes>;
  /** Record dialog width. */
  dialogWidth?: number;
  /**
   * The record dialog in titled sections, two columns at desktop width and one on a phone (docs/resources.md
   * "Dialog sections"); fields no section lists come after them.
   */
  sections?: { key: string; label: Msg; fields: string[] }[];
  /**
   * `true`: list and detail only (records come from the business, e.g. the outbox): no submit, remove or add call,
   * no add / edit / delete codes, and the screen offers no 新增, 编辑 or 删除. A `fixture` hook makes the record the
   * generated suites read. Actions, if any, stay.
   */
  readOnly?: true;
};

export type ResourceCodes = { view: string; add: string; edit: string; remove: string; viewButton: string };

/** Keeps the field names as literal types, so bindings can be checked against table columns. */
export function defineResource<const F extends Record<string, FieldDef>>(def: ResourceDef<F>): ResourceDef<F> {
  if (def.readOnly && (def.createPath || def.create === false))
    throw new Error(`${def.code}: a read-only resource has no add call (createPath, create)`);
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.search === 'range' && !['int', 'decimal', 'date', 'datetime'].includes(f.kind))
      throw new Error(`${def.code}.${name}: range search needs a numeric or date field`);
  }
  for (const section of def.sections ?? [])
    for (const name of section.fields)
      if (!(name in def.fields)) throw new Error(`${def.code}: section ${section.key} lists no field ${name}`);
  return def;
}

/** The permission codes of a resource, by one convention (overridable per resource). */
export function codesOf(def: Pick<ResourceDef, 'code' | 'codes'>): ResourceCodes {
  const c = def.code;
  return {
    view: c,
    add: `${c}_add`,
    edit: `${c}_edit`,
    remove: `${c}_delete`,
    viewButton: `${c}_view`,
    ...def.codes,
  };
}

export function actionCode(def: Pick<ResourceDef, 'code'>, name: string, a: ActionDef): string {
  return a.code ?? `${def.code}_${name}`;
}

/** The console path of a resource's screen. */
export const screenPath = (def: Pick<ResourceDef, 'group' | 'code'>) => `/${def.group}/${def.code}/index`;

/** Names of the fields a body may carry (not read-only, not virtual). */
export const writableFields = (def: ResourceDef) =>
  Object.entries(def.fields).filter(([, f]) => !f.readOnly && !f.virtual);

/** Names of the fields an answer may carry (not secret). */
export const readableFields = (def: ResourceDef) => Object.entries(def.fields).filter(([, f]) => f.kind !== 'secret');

/** The columns every record answers with (docs/system-api.md "Envelope"), besides its fields. */
export const RECORD_COLUMNS = [
  'id',
  'tenantId',
  'createUser',
  'createDept',
  'createTime',
  'updateUser',
  'updateTime',
  'status',
  'isDeleted',
  'version',
] as const;
