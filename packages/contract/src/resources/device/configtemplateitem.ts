import { defineResource } from '../../resource/define.ts';

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
