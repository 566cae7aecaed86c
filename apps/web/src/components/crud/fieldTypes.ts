import type { ComponentType, ReactNode } from 'react';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { nounOf, type Lang } from '@atrium/contract';
import { builtinKinds } from './kinds';
import type { CrudField, Option, Row, TreeNode } from './types';

/**
 * The field-type registry (docs/web.md "Field types"): a kind → its control, its table cell, its antd rules and its
 * record ⇄ form conversion. The engine only asks the registry, so a module adds a kind with `registerFieldType`
 * (at import time of its page) without touching the engine.
 */

/** What a control gets; Form.Item injects id, value, onChange and onBlur. */
export type InputProps = {
  f: CrudField;
  disabled?: boolean;
  options?: Option[];
  tree?: TreeNode[];
  /** In the search form (no placeholder, a single line, yes/no as a select). */
  search?: boolean;
  placeholder?: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
  onBlur?: () => void;
  id?: string;
};

export type CellContext = { f: CrudField; row: Row; labels?: Map<string, string>; t: TFunction };
export type RuleContext = { t: TFunction; lang: Lang; /** The label in the current language. */ label: string };

export type FieldType = {
  /** The control of the record dialog (and of the search form unless `search` is given). */
  input: ComponentType<InputProps>;
  /** The control of the search form. */
  search?: ComponentType<InputProps>;
  /** The cell's content for a non-empty value (default: option labels, or the text). */
  cell?: (value: unknown, ctx: CellContext) => ReactNode;
  /** The value is a number (the required rule must not read 0 as missing). */
  numeric?: boolean;
  /** The value is typed text (a required value of spaces only is missing). */
  text?: boolean;
  /** Rules besides `required` (lengths, ranges, forms). */
  rules?: (f: CrudField, ctx: RuleContext) => FormRule[];
  /** A record's value → the form's (after the engine's root / secret handling). */
  toForm?: (value: unknown, f: CrudField) => unknown;
  /** The form's value → the body's. */
  fromForm?: (value: unknown, f: CrudField) => unknown;
  /** A search value → list parameters (default `{ [name]: value }`, arrays as a comma list). */
  toQuery?: (value: unknown, f: CrudField) => Record<string, unknown>;
};

const registry = new Map<string, FieldType>(Object.entries(builtinKinds));

/** Adds (or replaces) a kind. */
export function registerFieldType(kind: string, type: FieldType) {
  registry.set(kind, type);
}

const LEGACY: Record<NonNullable<CrudField['type']>, string> = {
  text: 'text',
  number: 'int',
  textarea: 'textarea',
  select: 'dict',
  tree: 'ref',
  switch: 'switch',
  password: 'secret',
  date: 'datetime',
  icon: 'icon',
};

/** The registry key of a field: its kind, or the kind its older `type` stands for. */
export function kindOf(f: CrudField): string {
  if (f.kind) return f.kind;
  if (f.type === 'date' && f.dateOnly) return 'date';
  return LEGACY[f.type ?? 'text'];
}

export function fieldType(f: CrudField): FieldType {
  return registry.get(kindOf(f)) ?? registry.get('text')!;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** A record → the form's values: secrets left out, the "none" value of a tree shown empty, comma lists as arrays. */
export function toForm(fields: CrudField[], record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  for (const f of fields) {
    const v = record[f.name];
    if (f.secret) delete out[f.name];
    else if (f.root !== undefined && (v === f.root || String(v) === f.root)) out[f.name] = undefined;
    else if (f.multiple && typeof v === 'string') out[f.name] = v.split(',').filter(Boolean);
    else if (f.name in out) out[f.name] = fieldType(f).toForm?.(v, f) ?? v;
  }
  return out;
}

/** The form's values → the body: empty secrets not sent, an empty tree choice sent as its "none" value. */
export function fromForm(fields: CrudField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const f of fields) {
    if (!(f.name in out)) continue;
    const v = out[f.name];
    if (f.secret && isEmpty(v)) delete out[f.name];
    else if (f.root !== undefined && isEmpty(v)) out[f.name] = f.root;
    else {
      const convert = fieldType(f).fromForm;
      if (convert) out[f.name] = convert(v, f);
    }
  }
  return out;
}

/** The required rule, typed by the value (without a type antd checks for a string, and 0 or [1] would fail). */
export function requiredRule(f: CrudField, message: string): FormRule {
  const type = fieldType(f);
  if (f.multiple) return { type: 'array', required: true, message };
  if (type.numeric) return { type: 'number', required: true, message };
  if (!type.text) {
    return {
      required: true,
      message,
      validator: (_, v) => (isEmpty(v) ? Promise.reject(new Error(message)) : Promise.resolve()),
    };
  }
  return { type: 'string', required: true, message, whitespace: true };
}

/** Every rule of a field in the record dialog. */
export function rulesOf(f: CrudField, t: TFunction, lang: Lang): FormRule[] {
  const label = t(f.label);
  const rules: FormRule[] = [];
  // "Enter the {field}": the label as a noun inside the sentence (packages/contract messages.ts `nounOf`).
  const noun = lang === 'en' ? nounOf({ label: { zh: label, en: label } }).en : label;
  if (f.required) rules.push(requiredRule(f, t(f.requiredMessage ?? 'crud.required', { field: noun })));
  rules.push(...(fieldType(f).rules?.(f, { t, lang, label }) ?? []));
  return rules;
}

/** The search form's values → list parameters; empty values are left out. */
export function searchParams(fields: CrudField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const [name, v] of Object.entries(values)) {
    if (isEmpty(v) || (Array.isArray(v) && v.every(isEmpty))) continue;
    const f = byName.get(name);
    const params = f && fieldType(f).toQuery ? fieldType(f).toQuery!(v, f) : { [name]: v };
    for (const [k, x] of Object.entries(params)) {
      if (isEmpty(x)) continue;
      out[k] = Array.isArray(x) ? x.join(',') : x;
    }
  }
  return out;
}
