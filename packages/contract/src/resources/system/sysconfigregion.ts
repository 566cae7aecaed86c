import { commonFields } from '../common.ts';
import { defineResource, type Msg } from '../../resource/define.ts';
import { fill, requiredText } from '../../resource/messages.ts';

/**
 * 区域配置 (docs/product.md "Config by region", docs/system-api.md): per tenant, one flat object of settings per
 * region and config type. `regionCode` '00' is the tenant's default; `getSysConfigByRegionType` merges the entries
 * from the default down to the region asked for, key by key (the deeper region wins), and says where each key came
 * from. The map application and the video module read their per-region settings this way.
 */

/** The region code of the tenant's default entry. */
export const CONFIG_DEFAULT_REGION = '00';
/** The dictionary of config types (map, video, sms …). */
export const CONFIG_TYPE_DICT = 'sys_config_type';
/** A setting's key: a letter, then letters, digits, '_', '.' or '-'; 64 characters at most. */
export const CONFIG_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** Most settings in one entry. */
export const CONFIG_MAX_KEYS = 100;
/** Longest text value of a setting. */
export const CONFIG_MAX_TEXT = 1000;

export type ConfigValue = string | number | boolean;
export type ConfigObject = Record<string, ConfigValue>;

export const configTexts = {
  tenantDefault: { zh: '租户默认', en: 'Tenant default' },
  notObject: {
    zh: '配置项应为一个对象（键 → 值），例如 {"zoom": 12}',
    en: 'Settings must be an object of key → value, e.g. {"zoom": 12}',
  },
  empty: { zh: '请至少填写一个配置项', en: 'Add at least one setting' },
  tooMany: { zh: '配置项最多 {max} 个', en: 'At most {max} settings' },
  badKey: {
    zh: '配置键“{key}”格式不正确：以字母开头，最多 64 个字母、数字、_、. 或 -',
    en: 'The key "{key}" is not valid: a letter first, then up to 64 letters, digits, _, . or -',
  },
  duplicateKey: { zh: '配置键“{key}”重复', en: 'The key "{key}" appears twice' },
  badValue: {
    zh: '配置项“{key}”的值应为文本、数字或是/否（不能为空值、数组或对象）',
    en: 'The value of "{key}" must be text, a number or true/false (not null, a list or an object)',
  },
  longValue: {
    zh: '配置项“{key}”的值最多 {max} 个字符',
    en: 'The value of "{key}" is longer than {max} characters',
  },
  badNumber: { zh: '配置项“{key}”的值不是数字', en: 'The value of "{key}" is not a number' },
  // The editor of the console.
  key: { zh: '键', en: 'Key' },
  value: { zh: '值', en: 'Value' },
  valueType: { zh: '类型', en: 'Type' },
  typeText: { zh: '文本', en: 'Text' },
  typeNumber: { zh: '数字', en: 'Number' },
  typeBoolean: { zh: '是/否', en: 'Yes/no' },
  addSetting: { zh: '添加配置项', en: 'Add a setting' },
  remove: { zh: '删除', en: 'Remove' },
  asJson: { zh: 'JSON 编辑', en: 'Edit as JSON' },
  asList: { zh: '列表编辑', en: 'Edit as list' },
  badJson: { zh: 'JSON 格式不正确', en: 'Not valid JSON' },
} satisfies Record<string, Msg>;

/** A key as it may be quoted in a message (bounded, printable). */
const shown = (key: string) => key.replace(/[^\x20-\x7e\u4e00-\u9fff]/g, '?').slice(0, 64);

/**
 * Checks settings as the wire carries them — an object, or its JSON text — and answers the flat object of string
 * keys and scalar values to store, or the first problem in both languages. The server and the console share it.
 */
export function parseConfig(input: unknown): { ok: true; config: ConfigObject } | { ok: false; message: Msg } {
  let v = input;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return { ok: false, message: configTexts.notObject };
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, message: configTexts.notObject };
  const entries = Object.entries(v as Record<string, unknown>);
  if (!entries.length) return { ok: false, message: configTexts.empty };
  if (entries.length > CONFIG_MAX_KEYS)
    return { ok: false, message: fill(configTexts.tooMany, { max: CONFIG_MAX_KEYS }) };
  const config: ConfigObject = {};
  for (const [key, value] of entries) {
    if (!CONFIG_KEY_PATTERN.test(key)) return { ok: false, message: fill(configTexts.badKey, { key: shown(key) }) };
    if (typeof value === 'string') {
      if (value.length > CONFIG_MAX_TEXT)
        return { ok: false, message: fill(configTexts.longValue, { key, max: CONFIG_MAX_TEXT }) };
    } else if (!(typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))) {
      return { ok: false, message: fill(configTexts.badValue, { key }) };
    }
    config[key] = value as ConfigValue;
  }
  return { ok: true, config };
}

export const sysconfigregion = defineResource({
  code: 'sysconfigregion',
  group: 'system',
  base: '/api/blade-auth/sysConfigRegion',
  label: { zh: '区域配置', en: 'Config by region' },
  scope: 'tenant',
  defaultSort: 'regionCode',
  dialogWidth: 760,
  fields: {
    regionCode: {
      kind: 'region',
      label: { zh: '区划', en: 'Region' },
      required: true,
      search: 'eq',
      sort: true,
      // A seeded district.
      sample: '110101',
      ui: { width: 220, widget: 'config-region', display: 'regionName' },
    },
    regionName: {
      kind: 'text',
      virtual: true,
      label: { zh: '区划名称', en: 'Region name' },
      ui: { column: false, form: false },
    },
    sysType: {
      kind: 'dict',
      dict: CONFIG_TYPE_DICT,
      keys: 'string',
      label: { zh: '配置类型', en: 'Config type' },
      required: true,
      search: 'eq',
      sort: true,
      unique: {
        zh: '该区划已有此类型的配置',
        en: 'This region already has a config of this type',
      },
      invalid: { zh: '配置类型不在字典中', en: 'Not a config type of the dictionary' },
      sample: 'map',
      ui: { width: 140 },
    },
    config: {
      kind: 'textarea',
      max: 100000,
      label: { zh: '配置项', en: 'Settings' },
      required: true,
      sample: { zoom: 12, center: '116.40,39.90', traffic: true },
      ui: { widget: 'config-object', column: true },
    },
    remark: commonFields.remark(),
  },
});

/** The required text of the settings (the generic one, as for any text field). */
export const configRequired = requiredText(sysconfigregion.fields.config)!;
