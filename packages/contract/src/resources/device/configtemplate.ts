import { defineResource } from '../../resource/define.ts';
import { deviceTypeField, manufacturerField } from './dictioncary.ts';

/**
 * 配置模板 (docs/devices.md "Device records"): the configuration items of a device type (optionally of one
 * manufacturer). `status` 1 enabled / 2 disabled: a disabled template is not offered to new devices. Removing a
 * template removes its items; one that devices use cannot be removed.
 */
export const configtemplate = defineResource({
  code: 'configtemplate',
  group: 'device',
  base: '/api/blade-device-access/configtemplate',
  label: { zh: '配置模板', en: 'Config templates' },
  scope: 'tenant',
  fields: {
    name: {
      kind: 'text',
      max: 64,
      label: { zh: '模板名称', en: 'Template name' },
      required: true,
      search: 'like',
      sort: true,
    },
    deviceType: deviceTypeField,
    manufacturer: manufacturerField,
    status: {
      kind: 'dict',
      dict: 'config_template_status',
      keys: 'int',
      values: [1, 2],
      options: [
        { value: 1, label: { zh: '启用', en: 'Enabled' } },
        { value: 2, label: { zh: '停用', en: 'Disabled' } },
      ],
      label: { zh: '状态', en: 'Status' },
      default: 1,
      search: 'eq',
    },
    remark: { kind: 'textarea', max: 255, label: { zh: '备注', en: 'Remark' } },
  },
});
