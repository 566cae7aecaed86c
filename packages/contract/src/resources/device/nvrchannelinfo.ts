import { defineResource } from '../../resource/define.ts';

/** A channel's GB/T 28181 code: 20 digits. */
export const CHANNEL_CODE_PATTERN = '^\\d{20}$';

/**
 * NVR通道信息 (docs/devices.md "Device records"): the channels of an NVR. The list of one NVR is replaced as a whole
 * by `saveNvrChannelInfo` (what a device sync sends), so a channel is never added by `submit`; `submit` renames a
 * channel, changes its code or links a camera. Rows follow the data scope (the NVR's region and client).
 */
export const nvrchannelinfo = defineResource({
  code: 'nvrchannelinfo',
  group: 'device',
  base: '/api/blade-device-access/nvrchannelinfo',
  label: { zh: 'NVR通道信息', en: 'NVR channels' },
  scope: 'tenant',
  dataScope: true,
  create: false,
  defaultSort: 'channelNo',
  fields: {
    nvrDeviceId: {
      kind: 'ref',
      ref: 'cameradevice',
      options: { url: '/api/blade-device-access/cameraDevice/list?deviceType=118', value: 'id', label: 'name' },
      label: { zh: '所属NVR', en: 'NVR' },
      readOnly: true,
      search: 'eq',
      ui: { display: 'nvrName' },
    },
    nvrName: { kind: 'text', label: { zh: 'NVR名称', en: 'NVR name' }, virtual: true, ui: { column: false } },
    channelNo: {
      kind: 'int',
      label: { zh: '通道号', en: 'Channel' },
      readOnly: true,
      search: 'eq',
      sort: true,
    },
    channelCode: {
      kind: 'text',
      max: 20,
      pattern: {
        regex: CHANNEL_CODE_PATTERN,
        message: { zh: '通道编码必须是20位数字', en: 'A channel code is 20 digits' },
      },
      label: { zh: '通道编码', en: 'Channel code' },
      search: 'like',
      sample: '11010100001310000099',
    },
    name: { kind: 'text', max: 64, label: { zh: '通道名称', en: 'Channel name' }, search: 'like', sort: true },
    cameraId: {
      kind: 'ref',
      ref: 'cameradevice',
      options: { url: '/api/blade-device-access/cameraDevice/list', value: 'id', label: 'name' },
      label: { zh: '关联摄像机', en: 'Camera' },
      search: 'eq',
      ui: { display: 'cameraName' },
    },
    cameraName: { kind: 'text', label: { zh: '摄像机名称', en: 'Camera name' }, virtual: true, ui: { column: false } },
    regionCode: { kind: 'region', label: { zh: '所属区域', en: 'Region' }, readOnly: true, search: 'eq' },
    status: {
      kind: 'dict',
      dict: 'channel_status',
      keys: 'int',
      values: [0, 1],
      options: [
        { value: 0, label: { zh: '离线', en: 'Offline' } },
        { value: 1, label: { zh: '在线', en: 'Online' } },
      ],
      label: { zh: '状态', en: 'Status' },
      readOnly: true,
      search: 'in',
    },
  },
});
