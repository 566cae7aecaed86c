import { Space, type FormRule } from 'antd';
import dayjs from 'dayjs';
import type { FieldType, InputProps, RuleContext } from './fieldTypes';
import { DATE_FORMAT, DAY_FORMAT } from './formats';
import {
  ChoiceInput,
  DateInput,
  DateRangeInput,
  IconInput,
  NumberInput,
  NumberRangeInput,
  SecretInput,
  SwitchInput,
  TextAreaInput,
  TextInput,
  UploadInput,
} from './inputs';
import { menuIcon } from '../../layout/icons';
import { RegionCascader } from './RegionCascader';
import { RegionName } from './RegionName';
import { catalogue } from './texts';
import type { CrudField } from './types';

/** The built-in kinds: those of the contract's FieldDef, plus 'icon' (the sidebar's icon set). */

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** Length and form of a text, with the server's messages (packages/contract messages.ts). */
function textRules(f: CrudField, { t, lang, label }: RuleContext): FormRule[] {
  const rules: FormRule[] = [];
  if (f.max !== undefined)
    rules.push({ type: 'string', max: f.max, message: catalogue('tooLong', lang, { label, max: f.max }) });
  if (f.min) rules.push({ type: 'string', min: f.min, message: catalogue('tooShort', lang, { label, min: f.min }) });
  if (f.pattern) rules.push({ pattern: new RegExp(f.pattern.regex), message: t(f.pattern.message) });
  return rules;
}

function numberRules(f: CrudField, { lang, label }: RuleContext): FormRule[] {
  if (f.min === undefined && f.max === undefined) return [];
  const min = f.min ?? INT_MIN;
  const max = f.max ?? INT_MAX;
  const message = catalogue('outOfRange', lang, { label, min, max });
  return [
    {
      validator: (_, v) =>
        v === undefined || v === null || v === '' || (Number(v) >= min && Number(v) <= max)
          ? Promise.resolve()
          : Promise.reject(new Error(message)),
    },
  ];
}

/** A range search sends `<name>_<lo>` / `<name>_<hi>`; any other search sends the value as it is. */
const rangeQuery =
  (lo: string, hi: string) =>
  (v: unknown, f: CrudField): Record<string, unknown> =>
    f.search === 'range' && Array.isArray(v)
      ? { [`${f.name}_${lo}`]: v[0], [`${f.name}_${hi}`]: v[1] }
      : { [f.name]: v };

const DateSearch = (p: InputProps) => (p.f.search === 'range' ? <DateRangeInput {...p} /> : <DateInput {...p} />);
const NumberSearch = (p: InputProps) => (p.f.search === 'range' ? <NumberRangeInput {...p} /> : <NumberInput {...p} />);

const dateCell = (format: string) => (v: unknown) =>
  dayjs(v as string).isValid() ? dayjs(v as string).format(format) : String(v);

const date: FieldType = {
  input: DateInput,
  search: DateSearch,
  cell: (v, { f }) => dateCell(f.kind === 'date' || f.dateOnly ? DAY_FORMAT : DATE_FORMAT)(v),
  toQuery: rangeQuery('dategt', 'datelt'),
};

const number: FieldType = {
  input: NumberInput,
  search: NumberSearch,
  numeric: true,
  rules: numberRules,
  toQuery: rangeQuery('gte', 'lte'),
};

/** Only links the console can open safely are drawn as links. */
const safeLink = (v: string) => /^(https?:\/\/|\/)/i.test(v);

export const builtinKinds: Record<string, FieldType> = {
  text: { input: TextInput, text: true, rules: textRules },
  textarea: { input: TextAreaInput, text: true, rules: textRules },
  secret: { input: SecretInput, text: true, rules: textRules },
  int: number,
  decimal: number,
  switch: {
    input: SwitchInput,
    numeric: true,
    cell: (v, { t }) => t(v === 1 || v === '1' || v === true ? 'common.yes' : 'common.no'),
    toForm: (v) => (typeof v === 'boolean' ? Number(v) : v),
  },
  date,
  datetime: date,
  dict: { input: ChoiceInput },
  ref: { input: ChoiceInput },
  icon: {
    input: IconInput,
    cell: (v) => (
      <Space size={6}>
        {menuIcon(String(v))}
        {String(v)}
      </Space>
    ),
  },
  upload: {
    input: UploadInput,
    text: true,
    rules: textRules,
    cell: (v) =>
      safeLink(String(v)) ? (
        <a href={String(v)} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
          {String(v).split('/').pop()}
        </a>
      ) : (
        String(v)
      ),
  },
  region: {
    input: RegionCascader,
    text: true,
    // The name, not the code; the names of a page's codes come in one call (RegionName.tsx).
    cell: (v) => <RegionName code={String(v)} />,
    rules: (_f, { lang, label }) => [{ pattern: /^\d{2,12}$/, message: catalogue('badFormat', lang, { label }) }],
  },
};
