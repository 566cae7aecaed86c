import { defineResource, type Msg } from '../../resource/define.ts';
import { fill } from '../../resource/messages.ts';

/** The value types of a config item. */
export const CONFIG_VALUE_TYPES = ['string', 'number', 'boolean', 'enum'] as const;
export type ConfigValueType = (typeof CONFIG_VALUE_TYPES)[number];

/**
 * 模板配置项 (docs/devices.md "Device records"): one item of a template. Its default must itself be a valid value
 * (right type, within min/max, among the options); `options` is the comma list of an enum's values.
 */
export const configtemplateitem = defineResource({
  code: 'configtemplateitem',
  group: 'device',
  base: '/api/blade-device-access/configtemplateitem',
  label: { zh: '模板配置项', en: 'Template items' },
  scope: 'tenant',
  defaultSort: 'sort',
  fields: {
    templateId: {
      kind: 'ref',
      ref: 'configtemplate',
      options: { url: '/api/blade-device-access/configtemplate/options', label: 'name' },
      label: { zh: '所属模板', en: 'Template' },
      required: true,
      createOnly: true,
      search: 'eq',
      ui: { display: 'templateName' },
    },
    templateName: {
      kind: 'text',
      label: { zh: '模板名称', en: 'Template name' },
      virtual: true,
      ui: { column: false },
    },
    itemKey: {
      kind: 'text',
      max: 64,
      pattern: {
        regex: '^[A-Za-z][A-Za-z0-9_.]*$',
        message: {
          zh: '键以字母开头，只含字母、数字、下划线和点',
          en: 'A key starts with a letter: letters, digits, _ and .',
        },
      },
      label: { zh: '配置键', en: 'Key' },
      required: true,
      search: 'like',
      sort: true,
      unique: { zh: '该模板中已有此配置键', en: 'This key already exists in the template' },
    },
    itemName: {
      kind: 'text',
      max: 64,
      label: { zh: '配置名称', en: 'Name' },
      required: true,
      search: 'like',
    },
    valueType: {
      kind: 'dict',
      dict: 'config_value_type',
      keys: 'string',
      values: [...CONFIG_VALUE_TYPES],
      options: [
        { value: 'string', label: { zh: '文本', en: 'Text' } },
        { value: 'number', label: { zh: '数字', en: 'Number' } },
        { value: 'boolean', label: { zh: '布尔', en: 'Yes/no' } },
        { value: 'enum', label: { zh: '枚举', en: 'One of a list' } },
      ],
      label: { zh: '值类型', en: 'Value type' },
      required: true,
      search: 'eq',
    },
    defaultValue: { kind: 'text', max: 255, label: { zh: '默认值', en: 'Default value' }, sample: null },
    options: {
      kind: 'text',
      max: 500,
      label: { zh: '可选值', en: 'Options' },
      sample: null,
      ui: { placeholder: { zh: '枚举值，逗号分隔', en: 'Enum values, comma-separated' } },
    },
    unit: { kind: 'text', max: 32, label: { zh: '单位', en: 'Unit' } },
    min: { kind: 'decimal', label: { zh: '最小值', en: 'Minimum' }, sample: null },
    max: { kind: 'decimal', label: { zh: '最大值', en: 'Maximum' }, sample: null },
    required: {
      kind: 'dict',
      dict: 'yes_no',
      keys: 'int',
      values: [0, 1],
      options: [
        { value: 0, label: { zh: '否', en: 'No' } },
        { value: 1, label: { zh: '是', en: 'Yes' } },
      ],
      label: { zh: '必填', en: 'Required' },
      default: 0,
    },
    sort: {
      kind: 'int',
      min: 0,
      max: 999999,
      label: { zh: '排序', en: 'Sort' },
      default: 0,
      sort: true,
      ui: { width: 80 },
    },
  },
});

// ——— Config values (docs/devices.md "Config form"): one set of rules and texts for the server and the form ———

/** Texts of config values: the server's refusals and the config form's messages. */
export const configValueTexts = {
  configJson: {
    zh: '配置值必须是 JSON 对象，如 {"frameRate": 25}',
    en: 'Config values must be a JSON object, e.g. {"frameRate": 25}',
  },
  configUnknown: { zh: '配置项 {key} 不在配置模板中', en: 'Config item {key} is not in the template' },
  configType: {
    zh: '配置项“{name}”的值必须是{type}',
    en: 'Config item "{name}" must be {type}',
  },
  configRange: {
    zh: '配置项“{name}”必须在 {min} 到 {max} 之间',
    en: 'Config item "{name}" must be between {min} and {max}',
  },
  configOption: {
    zh: '配置项“{name}”必须是以下之一：{options}',
    en: 'Config item "{name}" must be one of: {options}',
  },
  configRequired: { zh: '配置项“{name}”必填', en: 'Config item "{name}" is required' },
  typeText: { zh: '文本', en: 'text' },
  typeNumber: { zh: '数字', en: 'a number' },
  typeBoolean: { zh: 'true 或 false', en: 'true or false' },
  enumNeedsOptions: { zh: '枚举类型的配置项须填写可选值', en: 'An enum item needs its options' },
  minAboveMax: { zh: '最小值不能大于最大值', en: 'The minimum cannot exceed the maximum' },
} satisfies Record<string, Msg>;

/** What the rules read of an item. */
export type ConfigRuleItem = {
  itemName: string;
  valueType: string;
  defaultValue: string | null;
  options: string | null;
  min: number | null;
  max: number | null;
  required: number;
};
export type ConfigValue = string | number | boolean;

/** `fill` with some parameters given in both languages. */
function fillBoth(m: Msg, params: Record<string, string | number | Msg>): Msg {
  const per = (lang: 'zh' | 'en') =>
    Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? v[lang] : v]));
  return { zh: fill(m, per('zh')).zh, en: fill(m, per('en')).en };
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** An enum item's options (its comma list). */
export const configOptionsOf = (item: Pick<ConfigRuleItem, 'options'>): string[] =>
  (item.options ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);

/** An item's stored default (text) as a value of its type; undefined when it has none. */
export function configDefaultOf(item: Pick<ConfigRuleItem, 'valueType' | 'defaultValue'>): unknown {
  const d = item.defaultValue;
  if (d === null || d === undefined || d === '') return undefined;
  if (item.valueType === 'number') return d.trim() === '' ? NaN : Number(d);
  if (item.valueType === 'boolean') return d === 'true' ? true : d === 'false' ? false : d;
  return d;
}

/** A value checked against its item: the value, or the message saying what is wrong (naming the item). */
export function checkConfigValue(item: ConfigRuleItem, value: unknown): { ok: ConfigValue } | { error: Msg } {
  const texts = configValueTexts;
  const name = item.itemName;
  switch (item.valueType) {
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return { error: fillBoth(texts.configType, { name, type: texts.typeNumber }) };
      const min = item.min ?? -Infinity;
      const max = item.max ?? Infinity;
      if (value < min || value > max)
        return { error: fill(texts.configRange, { name, min: item.min ?? '-∞', max: item.max ?? '∞' }) };
      return { ok: value };
    }
    case 'boolean':
      return typeof value === 'boolean'
        ? { ok: value }
        : { error: fillBoth(texts.configType, { name, type: texts.typeBoolean }) };
    case 'enum': {
      const options = configOptionsOf(item);
      return typeof value === 'string' && options.includes(value)
        ? { ok: value }
        : { error: fill(texts.configOption, { name, options: options.join(', ') }) };
    }
    default:
      return typeof value === 'string'
        ? { ok: value }
        : { error: fillBoth(texts.configType, { name, type: texts.typeText }) };
  }
}

/**
 * What is wrong with one item's value as a device gives it, or null: an empty value falls back to the item's
 * default (a required item without either is refused), any other value is checked against the item.
 */
export function configProblemOf(item: ConfigRuleItem, value: unknown): Msg | null {
  const given = isEmpty(value) ? configDefaultOf(item) : value;
  if (isEmpty(given))
    return item.required === 1 ? fill(configValueTexts.configRequired, { name: item.itemName }) : null;
  const checked = checkConfigValue(item, given);
  return 'error' in checked ? checked.error : null;
}
