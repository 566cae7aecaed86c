import { actionCode, codesOf, requiredText, type FieldDef, type Lang, type ResourceDef } from '@atrium/contract';
import i18n from '../../i18n';
import type { CrudField, CrudSchema, LifecycleAction, Row } from './types';

/**
 * A resource definition (packages/contract/src/resources) → the engine's schema, and its texts → i18next under the
 * namespace of the resource's code (`post:fields.postCode.label`), so labels follow the language and no module
 * edits zh.ts / en.ts. Messages are the server's own (the same Msg objects, the same catalogue).
 */

type ValueOf<F> = F extends { kind: 'int' | 'decimal' | 'switch' }
  ? number
  : F extends { kind: 'dict'; multiple: true }
    ? string | (string | number)[]
    : F extends { kind: 'dict'; keys: 'int' }
      ? number
      : F extends { kind: 'ref'; multiple: true }
        ? string | string[]
        : string;

/** The record a definition's list and detail answer: the record columns and its fields, typed by kind. */
export type RecordOf<F extends Record<string, FieldDef>> = Row & { [K in keyof F]?: ValueOf<F[K]> | null };

type Bundle = { [key: string]: string | Bundle };

/** Drops absent texts, so i18next never stores `undefined`. */
const bundle = (entries: [string, string | Bundle | undefined][]): Bundle =>
  Object.fromEntries(entries.filter((e): e is [string, string | Bundle] => e[1] !== undefined));

function fieldTexts(f: FieldDef, lang: Lang): Bundle {
  return bundle([
    ['label', f.label[lang]],
    ['required', requiredText(f)?.[lang]],
    ['placeholder', f.ui?.placeholder?.[lang]],
    ['pattern', 'pattern' in f && f.pattern ? f.pattern.message[lang] : undefined],
    [
      'options',
      f.kind === 'dict' && f.options ? bundle(f.options.map((o, i) => [String(i), o.label[lang]])) : undefined,
    ],
  ]);
}

const fieldsTexts = (fields: Record<string, FieldDef> | undefined, lang: Lang): Bundle =>
  bundle(Object.entries(fields ?? {}).map(([name, f]) => [name, fieldTexts(f, lang)]));

/** Every text of a definition in one language, as an i18next bundle. */
export function resourceTexts(def: ResourceDef, lang: Lang): Bundle {
  return bundle([
    ['label', def.label[lang]],
    ['fields', fieldsTexts(def.fields, lang)],
    ['sections', bundle((def.sections ?? []).map((x) => [x.key, x.label[lang]]))],
    [
      'actions',
      bundle(
        Object.entries(def.actions ?? {}).map(([name, a]) => [
          name,
          bundle([
            ['label', a.label[lang]],
            ['done', a.done[lang]],
            ['confirm', a.confirm?.[lang]],
            ['refused', a.refused?.[lang]],
            ['input', fieldsTexts(a.input, lang)],
          ]),
        ]),
      ),
    ],
  ]);
}

const registered = new WeakSet<ResourceDef>();

/** Adds a definition's texts to i18next (once per definition object). */
export function registerResourceTexts(def: ResourceDef) {
  if (registered.has(def)) return;
  for (const lang of ['zh', 'en'] as const)
    i18n.addResourceBundle(lang, def.code, resourceTexts(def, lang), true, true);
  registered.add(def);
}

/** One field of the definition as the engine's field; `path` is where its texts live in the resource's bundle. */
function crudField(code: string, path: string, name: string, f: FieldDef): CrudField {
  const key = (k: string) => `${code}:${path}.${k}`;
  const ui = f.ui ?? {};
  const show = ui.showWhen;
  const field: CrudField = {
    name,
    kind: ui.widget ?? f.kind,
    label: key('label'),
    required: !!f.required,
    requiredMessage: f.required ? key('required') : undefined,
    search: f.search,
    sort: f.sort,
    column: ui.column ?? !(f.kind === 'textarea' || f.kind === 'secret'),
    form: ui.form ?? !(f.readOnly || f.virtual),
    editable: ui.disabled ? false : f.createOnly ? 'add' : undefined,
    viewOnly: ui.viewOnly,
    wide: f.kind === 'textarea' || undefined,
    default: f.default ?? undefined,
    display: ui.display,
    english: ui.english,
    placeholder: ui.placeholder ? key('placeholder') : undefined,
    width: ui.width,
    visible: show ? (v) => show.in.map(String).includes(String(v[show.field])) : undefined,
  };
  switch (f.kind) {
    case 'text':
    case 'textarea':
      return {
        ...field,
        // A text typed like a password: never loaded from a record, not sent when left empty (client secrets).
        ...(ui.widget === 'secret' ? { secret: true, hideInView: true } : {}),
        max: f.max,
        min: f.min,
        pattern: f.pattern ? { regex: f.pattern.regex, message: key('pattern') } : undefined,
      };
    case 'secret':
      return { ...field, max: f.max, secret: true, hideInView: true };
    case 'upload':
      return { ...field, max: f.max, accept: f.accept };
    case 'int':
    case 'decimal':
      return { ...field, min: f.min, max: f.max, scale: f.kind === 'decimal' ? f.scale : undefined };
    case 'dict':
      return {
        ...field,
        dict: f.biz ? undefined : f.dict,
        dictBiz: f.biz ? f.dict : undefined,
        multiple: f.multiple,
        // Labels of fixed values when the dictionary has none; bare values as a last resort.
        options: f.options
          ? f.options.map((o, i) => ({ value: o.value, label: key(`options.${i}`) }))
          : f.values?.map((v) => ({ value: v, label: String(v) })),
      };
    case 'ref':
      return {
        ...field,
        multiple: f.multiple,
        root: f.root,
        treeUrl: f.options.tree ? f.options.url : undefined,
        menuLabels: f.ref === 'menu' || undefined,
        optionsUrl: f.options.tree ? undefined : f.options.url,
        optionValue: f.options.value,
        optionLabel: f.options.label,
      };
    default:
      return field;
  }
}

const createTimeRange: CrudField = {
  name: 'createTime',
  kind: 'datetime',
  label: 'crud.createTime',
  search: 'range',
  column: false,
  form: false,
};

/** The engine's schema of a definition: fields, codes, tree, lifecycle actions; texts registered in i18next. */
export function resourceSchema<F extends Record<string, FieldDef>>(def: ResourceDef<F>): CrudSchema<RecordOf<F>> {
  registerResourceTexts(def as ResourceDef);
  const k = (p: string) => `${def.code}:${p}`;
  const codes = codesOf(def);
  const lazyTree = def.tree && (def.tree.routes ?? ['lazy-list']).includes('lazy-list');
  const lifecycle: LifecycleAction[] = Object.entries(def.actions ?? {}).map(([name, a]) => ({
    name,
    code: actionCode(def, name, a),
    label: k(`actions.${name}.label`),
    path: a.path ?? name,
    stateField: a.stateField ?? 'status',
    from: a.from,
    confirm: a.confirm ? k(`actions.${name}.confirm`) : undefined,
    done: k(`actions.${name}.done`),
    refused: a.refused ? k(`actions.${name}.refused`) : undefined,
    many: a.target === 'many',
    idField: a.idField ?? (a.target === 'many' ? 'ids' : 'id'),
    danger: a.danger,
    input: a.input
      ? Object.entries(a.input).map(([n, f]) => crudField(def.code, `actions.${name}.input.${n}`, n, f))
      : undefined,
  }));
  return {
    base: def.base,
    listPath: def.listPath,
    createPath: def.createPath,
    title: k('label'),
    codes: { add: codes.add, edit: codes.edit, delete: codes.remove, view: codes.viewButton },
    create: def.create === false || def.readOnly ? false : undefined,
    readOnly: def.readOnly,
    fields: [
      ...Object.entries(def.fields).map(([n, f]) => crudField(def.code, `fields.${n}`, n, f)),
      // Every list takes a creation-time range (createTime_dategt / createTime_datelt) unless the definition says no.
      ...(def.createTimeRange === false || def.fields.createTime ? [] : [createTimeRange]),
    ],
    tree: lazyTree ? { lazy: true, parentField: def.tree!.parent } : undefined,
    lifecycle: lifecycle.length ? lifecycle : undefined,
    dialogWidth: def.dialogWidth,
    sections: def.sections?.map((x) => ({ title: k(`sections.${x.key}`), fields: x.fields })),
  };
}
