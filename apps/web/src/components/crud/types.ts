import type { ReactNode } from 'react';
import type { ApiRoute } from '@atrium/contract';

export type Row = Record<string, unknown> & { id: string; version?: number; hasChildren?: boolean; children?: Row[] };
export type Mode = 'add' | 'edit' | 'view';
/** How a field filters the list: exact, contains, one of several (multi-select), or a from–to range. */
export type SearchOp = 'eq' | 'like' | 'in' | 'range';

export type Option = { value: string | number; label: string };
/** A tree node of docs/system-api.md "Lists and trees" (menus, depts, roles, dict trees): the contract's wire shape. */
export type { TreeNode } from '@atrium/contract';

/** Callbacks are written as methods so a field of a typed record still fits a list of plain ones. */
export type CrudField<R extends Row = Row> = {
  name: string;
  /** i18n key of the label. */
  label: string;
  /** A kind of the field-type registry (fieldTypes.tsx); wins over `type`. */
  kind?: string;
  /** The older control names, mapped onto kinds (number → int, select → dict, tree → ref, password → secret). */
  type?: 'text' | 'number' | 'textarea' | 'select' | 'tree' | 'switch' | 'password' | 'date' | 'icon';
  /** For type 'date': a calendar day (no time). */
  dateOnly?: boolean;
  required?: boolean;
  /** i18n key of the required message. */
  requiredMessage?: string;
  /** Text kinds: shortest / longest length; number kinds: smallest / largest value. */
  min?: number;
  max?: number;
  /** Decimal places of a decimal. */
  scale?: number;
  /** A text's form; `message` is an i18n key. */
  pattern?: { regex: string; message: string };
  /** Upload: the file types offered. */
  accept?: string;
  /** Inline options; labels are i18n keys. With `dict`/`dictBiz` they are the fallback when the dictionary is empty. */
  options?: Option[];
  /** Options from the system dictionary of this code (GET /api/blade-system/dict/dictionary?code=). */
  dict?: string;
  /** Options from the business dictionary of this code (GET /api/blade-system/dict-biz/dictionary?code=). */
  dictBiz?: string;
  /** Options from a URL answering records; `optionValue`/`optionLabel` name their fields (default id / name). */
  optionsUrl?: string;
  optionValue?: string;
  optionLabel?: string;
  /** The URL of tree nodes (a TreeSelect). */
  treeUrl?: string;
  multiple?: boolean;
  /** The value meaning "none" (e.g. parentId '0'): shown as empty, sent when left empty. */
  root?: string;
  /** Shown as a search field; `true` is the plain control ('eq' / 'like'), 'in' a multi-select, 'range' from–to. */
  search?: boolean | SearchOp;
  /** The column can be sorted (sent as `ascs` / `descs`). */
  sort?: boolean;
  /** Column in the table (default true). */
  column?: boolean;
  /** Field in the add/edit/view dialog (default true). */
  form?: boolean;
  /** false: disabled when adding and editing; 'add': editable only when adding. */
  editable?: boolean | 'add';
  /** Only in the add dialog (e.g. an initial password). */
  addOnly?: boolean;
  /** Not shown in the view dialog. */
  hideInView?: boolean;
  /** Only in the view dialog. */
  viewOnly?: boolean;
  /** A whole line of a dialog in sections (long texts, item-by-item controls). */
  wide?: boolean;
  /** Never loaded from a record into the form and not sent when left empty (secrets). */
  secret?: boolean;
  /** Initial value when adding. */
  default?: unknown;
  /** The form shows the field only when this holds for the current values. */
  visible?(values: Record<string, unknown>): boolean;
  /** Column: show this record field instead (e.g. deptName for deptId). */
  display?: string;
  /** Column in English: show this record field instead when it is set (a menu's alias). */
  english?: string;
  /** Tree nodes are menus: labelled as the sidebar labels them (the alias in English). */
  menuLabels?: boolean;
  /** Placeholder in the record dialog (i18n key); the search form shows none. */
  placeholder?: string;
  width?: number;
  /** Table cell; must be pure in (value, row). */
  render?(value: unknown, row: R): ReactNode;
};

export type CrudContext = {
  /** Reload the table (and the option trees). */
  refresh: () => Promise<void>;
  /** Open the add dialog with these values prefilled. */
  add: (values?: Record<string, unknown>) => void;
};

/** A toolbar button (gets the selected rows) or a row action (gets [row]), shown when the user holds `code`. */
export type CrudAction<R extends Row = Row> = {
  /** Permission code; without one the action is always shown. */
  code?: string;
  /** i18n key. */
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  /** Toolbar only: warn '请选择至少一条数据' when nothing is selected. */
  needsSelection?: boolean;
  /** Row actions only: shown on the rows this holds for (e.g. a review only while pending). */
  when?(row: R): boolean;
  onClick(rows: R[], ctx: CrudContext): void;
};

/**
 * A state change of a definition (`actions` of a ResourceDef): a row button while the row's state is in `from`,
 * posted to `<base>/<path>` with `{ id, version }` (or `{ ids }` when `many`). Texts are i18n keys.
 */
export type LifecycleAction = {
  name: string;
  /** Permission code. */
  code: string;
  label: string;
  path: string;
  stateField: string;
  from?: (string | number)[];
  confirm?: string;
  done: string;
  /** The message when a picked record is in another state (default: the catalogue's stateRefused). */
  refused?: string;
  /** Acts on several records (also a toolbar button over the selection). */
  many: boolean;
  /** The name of the id (or ids) parameter. */
  idField: string;
  danger?: boolean;
  /** Input asked in a dialog before the call (prefilled from the record when one is picked). */
  input?: CrudField[];
  /** A screen's own dialog instead of the input dialog or the confirmation (e.g. a role's grant trees). */
  open?(rows: Row[], ctx: CrudContext): void;
  /** After a successful call, with the server's answer (e.g. one-time passwords to show once). */
  onDone?(answer: unknown, rows: Row[]): void;
};

export type CrudSchema<R extends Row = Row> = {
  /** e.g. '/api/blade-system/post' */
  base: string;
  /** The list call under base (default 'list'). */
  listPath?: string;
  /**
   * A route declared in the contract that lists the records instead (the same page or tree), e.g. a review queue
   * (`business.clientInfoVerify`); it wins over `listPath` (docs/api.md "Routes in the contract").
   */
  listRoute?: ApiRoute;
  /** The update call when it differs from submit (e.g. users: 'update'). */
  updatePath?: string;
  /** The add call when it differs from submit (a definition's `createPath`, e.g. cameras: 'save'). */
  createPath?: string;
  /** i18n key of the screen title. */
  title: string;
  /** Permission codes from the server's buttons. */
  codes: { add: string; edit: string; delete: string; view: string };
  /**
   * `false`: records come from the business (a definition's `create: false`, e.g. approvals): no 新增 and no
   * 新增子项, whatever codes the user holds.
   */
  create?: false;
  /**
   * A read-only resource (a definition's `readOnly`, e.g. the outbox): no 新增, 编辑 or 删除, whatever codes the
   * user holds; view and actions stay.
   */
  readOnly?: boolean;
  fields: CrudField<R>[];
  /**
   * Tree table. lazy: root rows from `${base}/lazy-list?parentId=0`, children on expand;
   * otherwise the list call answers the whole tree (records with `children`). No paging either way.
   */
  tree?: { lazy?: boolean; parentField?: string };
  /** Extra toolbar buttons. */
  actions?: CrudAction<R>[];
  /** Extra row actions. */
  rowActions?: CrudAction<R>[];
  /** State changes by lifecycle (from a definition). */
  lifecycle?: LifecycleAction[];
  /** Values prefilled on add; `parent` is the row of an "add child" action. */
  addDefaults?(parent?: R): Record<string, unknown>;
  /** After a successful submit (e.g. show a secret answered once). */
  onSaved?(saved: Record<string, unknown>, mode: 'add' | 'edit'): void;
  /** Row click (e.g. pick a dictionary); the row gets highlighted. */
  onRowClick?(row: R): void;
  activeRowId?: string;
  dialogWidth?: number;
  /**
   * The record dialog in titled sections (i18n key, field names), two columns from the md breakpoint; fields no
   * section names come last (docs/resources.md "Dialog sections").
   */
  sections?: { title: string; fields: string[] }[];
  actionWidth?: number;
  /** Initial page size (default 10; docs/product.md "Constants"). */
  pageSize?: number;
};
