import { commonFields } from '../common.ts';
import { defineResource, type FieldDef } from '../../resource/define.ts';

const base = '/api/blade-device-access/dictioncary';

/** A device type's code: the three GB/T 28181 type digits (131 camera, 132 IP camera, 118 NVR). */
export const DEVICE_TYPE_PATTERN = '^\\d{3}$';

/** A record's device type: a level-1 code of the device dictionary (cameras, config templates). */
export const deviceTypeField = {
  kind: 'text',
  max: 16,
  pattern: {
    regex: DEVICE_TYPE_PATTERN,
    message: { zh: '设备类型是三位数字编码', en: 'A device type is a three-digit code' },
  },
  label: { zh: '设备类型', en: 'Device type' },
  required: true,
  search: 'eq',
  sort: true,
  sample: '131',
  ui: { widget: 'deviceType' },
} satisfies FieldDef;

/** A record's manufacturer: a level-2 code of the device dictionary under its type. */
export const manufacturerField = {
  kind: 'text',
  max: 64,
  label: { zh: '厂商', en: 'Manufacturer' },
  search: 'eq',
  sample: 'hikvision',
  ui: { widget: 'deviceManufacturer' },
} satisfies FieldDef;

/**
 * 设备字典 (docs/devices.md "Device records"): the tenant's tree of device types (level 1, code = the GB/T 28181 type
 * code), their manufacturers (level 2) and models (level 3). Seeded in every tenant. An entry never moves and its
 * code never changes (devices and templates refer to it by code); one in use cannot be removed.
 */
export const dictioncary = defineResource({
  code: 'dictioncary',
  group: 'device',
  base,
  label: { zh: '设备字典', en: 'Device dictionary' },
  scope: 'tenant',
  defaultSort: 'sort',
  tree: {
    parent: 'parentId',
    title: 'name',
    sort: 'sort',
    // The camera, template and channel screens pick types, manufacturers and models from the tree.
    readAlso: ['cameradevice', 'configtemplate', 'configtemplateitem', 'nvrchannelinfo'],
    messages: {
      parentMissing: { zh: '上级字典项不存在', en: 'The parent entry does not exist' },
      cycle: { zh: '上级不能是自己或自己的下级', en: 'An entry cannot move below itself' },
      hasChildren: { zh: '请先删除下级字典项', en: 'Remove its sub-entries first' },
    },
  },
  fields: {
    parentId: {
      kind: 'ref',
      ref: 'dictioncary',
      root: '0',
      options: { url: `${base}/tree`, tree: true },
      label: { zh: '上级', en: 'Parent' },
      default: '0',
      search: 'eq',
      createOnly: true,
      sample: '0',
      ui: { column: false },
    },
    code: {
      kind: 'text',
      max: 64,
      pattern: {
        regex: '^[A-Za-z0-9_.-]+$',
        message: { zh: '编码只能包含字母、数字、下划线、点和横线', en: 'A code has letters, digits, _ . and - only' },
      },
      label: { zh: '编码', en: 'Code' },
      required: true,
      createOnly: true,
      search: 'eq',
      sort: true,
      unique: { zh: '同一上级下编码已存在', en: 'This code already exists under the same parent' },
      // A level-1 entry is a device type: three digits (the server checks it).
      sample: '199',
    },
    name: {
      kind: 'text',
      max: 64,
      label: { zh: '名称', en: 'Name' },
      required: true,
      search: 'like',
      sort: true,
    },
    nameEn: { kind: 'text', max: 64, label: { zh: '英文名称', en: 'English name' }, search: 'like' },
    sort: commonFields.sort(),
    remark: { kind: 'textarea', max: 255, label: { zh: '备注', en: 'Remark' } },
  },
});
