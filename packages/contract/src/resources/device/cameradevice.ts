import { defineResource } from '../../resource/define.ts';
import { deviceTypeField, manufacturerField } from './dictioncary.ts';

/** `camera_device.status` (docs/devices.md "Tables"): device access writes 0/1; staff disable (2) and enable. */
export const DEVICE_STATUS = { offline: 0, online: 1, disabled: 2 } as const;

/** GB/T 28181 type codes the console knows by name (the tenant's dictionary holds every type). */
export const DEVICE_TYPES = { camera: '131', ipc: '132', nvr: '118' } as const;

/** The stream and ONVIF protocols a device may use. */
export const DEVICE_PROTOCOLS = ['RTSP', 'ONVIF', 'GB28181'] as const;

/** A GB/T 28181 device code: 20 digits (the server checks district, type and region). */
export const DEVICE_CODE_PATTERN = '^\\d{20}$';

const codeRule = {
  regex: DEVICE_CODE_PATTERN,
  message: { zh: '设备编码必须是20位数字', en: 'A device code is 20 digits' },
};

/**
 * 摄像机设备 — cameras and NVRs (docs/devices.md "Device records"). `save` adds (answering the device's MQTT
 * secret once, as `deviceSecret`), `submit` updates. The stream URL's credentials and the ONVIF password are sealed
 * at rest and never answered; `streamUrl` answers the URL without them. Rows follow the data scope: a region admin
 * the region's devices, a client account its own client's.
 */
export const cameradevice = defineResource({
  code: 'cameradevice',
  group: 'device',
  base: '/api/blade-device-access/cameraDevice',
  listPath: 'pageList',
  createPath: 'save',
  label: { zh: '摄像机设备', en: 'Cameras' },
  scope: 'tenant',
  dataScope: true,
  // Newest first by creation time (not the id): the server's list index (camera_device_list_idx) serves this order
  // with the region range checked inside the index — see docs/devices.md "Camera list".
  defaultSort: 'createTime desc',
  dialogWidth: 900,
  // About twenty fields: by what they say about the camera, so the dialog reads as four short groups.
  sections: [
    {
      key: 'identity',
      label: { zh: '设备信息', en: 'Identity' },
      fields: ['deviceCode', 'name', 'deviceType', 'manufacturer', 'model', 'status', 'lastSeen'],
    },
    {
      key: 'place',
      label: { zh: '位置与归属', en: 'Place' },
      fields: ['regionCode', 'address', 'lng', 'lat', 'clientId', 'subDomainId'],
    },
    {
      key: 'access',
      label: { zh: '接入', en: 'Access' },
      fields: ['ip', 'port', 'protocol', 'nvrId', 'channelNo', 'onvifUrl', 'onvifUser', 'onvifPassword', 'ptz'],
    },
    {
      key: 'video',
      label: { zh: '视频与配置', en: 'Video and config' },
      fields: ['streamUrl', 'configTemplateId', 'configValues'],
    },
  ],
  fields: {
    deviceCode: {
      kind: 'text',
      max: 20,
      pattern: codeRule,
      label: { zh: '设备编码', en: 'Device code' },
      required: true,
      // The device's identity to device access (its MQTT topic): fixed once the device exists.
      createOnly: true,
      search: 'like',
      sort: true,
      unique: { zh: '设备编码已存在', en: 'This device code already exists' },
      // 110101 (a district of the seeded region table), industry 00, type 131, network 0, serial 000001.
      sample: '11010100001310000001',
    },
    name: {
      kind: 'text',
      max: 64,
      label: { zh: '设备名称', en: 'Device name' },
      required: true,
      search: 'like',
      sort: true,
    },
    deviceType: deviceTypeField,
    manufacturer: manufacturerField,
    model: {
      kind: 'text',
      max: 64,
      label: { zh: '型号', en: 'Model' },
      search: 'eq',
      sample: 'DS-2CD3T47',
      ui: { widget: 'deviceModel', column: false },
    },
    regionCode: {
      kind: 'region',
      label: { zh: '所属区域', en: 'Region' },
      required: true,
      search: 'eq',
      sample: '110101',
    },
    address: { kind: 'text', max: 255, label: { zh: '安装地址', en: 'Address' }, ui: { column: false } },
    lng: {
      kind: 'decimal',
      min: -180,
      max: 180,
      scale: 6,
      label: { zh: '经度', en: 'Longitude' },
      invalid: { zh: '经度必须在 -180 到 180 之间', en: 'Longitude must be between -180 and 180' },
      sample: 116.397128,
      ui: { column: false },
    },
    lat: {
      kind: 'decimal',
      min: -90,
      max: 90,
      scale: 6,
      label: { zh: '纬度', en: 'Latitude' },
      invalid: { zh: '纬度必须在 -90 到 90 之间', en: 'Latitude must be between -90 and 90' },
      sample: 39.916527,
      ui: { column: false },
    },
    clientId: {
      kind: 'ref',
      ref: 'clientinfo',
      options: { url: '/api/blade-business/clientInfo/clientList', value: 'id', label: 'clientName' },
      label: { zh: '所属客户', en: 'Client' },
      search: 'eq',
      ui: { display: 'clientName' },
    },
    clientName: { kind: 'text', label: { zh: '客户名称', en: 'Client name' }, virtual: true, ui: { column: false } },
    nvrId: {
      kind: 'ref',
      ref: 'cameradevice',
      options: { url: '/api/blade-device-access/cameraDevice/list?deviceType=118', value: 'id', label: 'name' },
      label: { zh: '所属NVR', en: 'NVR' },
      search: 'eq',
      ui: { column: false },
    },
    channelNo: {
      kind: 'int',
      min: 1,
      max: 9999,
      label: { zh: 'NVR通道号', en: 'NVR channel' },
      sample: null,
      ui: { column: false },
    },
    ip: {
      kind: 'text',
      max: 64,
      pattern: {
        regex: '^[0-9A-Fa-f.:]+$',
        message: { zh: 'IP 地址格式不正确', en: 'Not an IP address' },
      },
      label: { zh: 'IP地址', en: 'IP address' },
      search: 'like',
      sample: '10.0.0.8',
    },
    port: { kind: 'int', min: 1, max: 65535, label: { zh: '端口', en: 'Port' }, sample: 554, ui: { column: false } },
    protocol: {
      kind: 'dict',
      dict: 'device_protocol',
      keys: 'string',
      values: [...DEVICE_PROTOCOLS],
      options: DEVICE_PROTOCOLS.map((p) => ({ value: p, label: { zh: p, en: p } })),
      label: { zh: '接入协议', en: 'Protocol' },
      search: 'eq',
    },
    streamUrl: {
      kind: 'text',
      max: 512,
      pattern: {
        regex: '^(rtsp|https?)://\\S+$',
        message: {
          zh: '视频流地址须以 rtsp://、http:// 或 https:// 开头',
          en: 'A stream URL starts with rtsp://, http:// or https://',
        },
      },
      label: { zh: '视频流地址', en: 'Stream URL' },
      // A public address: a private one is allowed only inside a camera network the tenant lists (docs/devices.md
      // "Camera addresses"); the generated tests save it, never connect to it.
      sample: 'rtsp://203.0.112.8:554/stream1',
      ui: {
        column: false,
        placeholder: {
          zh: 'rtsp://用户:密码@主机:554/路径（账号密码加密保存，不会回显）',
          en: 'rtsp://user:password@host:554/path (credentials are kept encrypted and never shown)',
        },
      },
    },
    ptz: {
      kind: 'switch',
      label: { zh: '支持云台', en: 'PTZ' },
      default: 0,
      search: 'eq',
    },
    onvifUrl: {
      kind: 'text',
      max: 512,
      pattern: {
        regex: '^https?://\\S+$',
        message: { zh: 'ONVIF 地址须以 http:// 或 https:// 开头', en: 'An ONVIF URL starts with http:// or https://' },
      },
      label: { zh: 'ONVIF地址', en: 'ONVIF URL' },
      sample: 'http://203.0.112.8/onvif/device_service',
      ui: { column: false },
    },
    onvifUser: { kind: 'text', max: 64, label: { zh: 'ONVIF用户名', en: 'ONVIF user' }, ui: { column: false } },
    onvifPassword: {
      kind: 'secret',
      max: 128,
      column: false,
      label: { zh: 'ONVIF密码', en: 'ONVIF password' },
      ui: { placeholder: { zh: '留空则保持不变', en: 'Leave empty to keep it' } },
    },
    configTemplateId: {
      kind: 'ref',
      ref: 'configtemplate',
      options: { url: '/api/blade-device-access/configtemplate/options', label: 'name' },
      label: { zh: '配置模板', en: 'Config template' },
      search: 'eq',
      ui: { column: false },
    },
    configValues: {
      kind: 'textarea',
      max: 8000,
      column: false,
      label: { zh: '配置值(JSON)', en: 'Config values (JSON)' },
      sample: null,
      ui: { placeholder: { zh: '{"键": 值}', en: '{"key": value}' } },
    },
    subDomainId: {
      kind: 'ref',
      ref: 'subdomain_list',
      options: { url: '/api/blade-device-access/cameraDevice/subDomainOptions', value: 'id', label: 'fullDomain' },
      label: { zh: '绑定子域名', en: 'Sub-domain' },
      search: 'eq',
      ui: { column: false },
    },
    status: {
      kind: 'dict',
      dict: 'camera_status',
      keys: 'int',
      values: [0, 1, 2],
      options: [
        { value: 0, label: { zh: '离线', en: 'Offline' } },
        { value: 1, label: { zh: '在线', en: 'Online' } },
        { value: 2, label: { zh: '已停用', en: 'Disabled' } },
      ],
      label: { zh: '状态', en: 'Status' },
      readOnly: true,
      search: 'in',
      sort: true,
    },
    lastSeen: { kind: 'datetime', label: { zh: '最后上报', en: 'Last seen' }, readOnly: true, sort: true },
  },
  actions: {
    disable: {
      label: { zh: '停用', en: 'Disable' },
      code: 'cameradevice_edit',
      from: [0, 1],
      to: 2,
      confirm: {
        zh: '停用后设备的上报将被拒绝，确定停用?',
        en: 'A disabled device’s messages are refused. Disable it?',
      },
      done: { zh: '已停用', en: 'Disabled' },
      refused: { zh: '设备已停用', en: 'The device is already disabled' },
      danger: true,
    },
    enable: {
      label: { zh: '启用', en: 'Enable' },
      code: 'cameradevice_edit',
      from: [2],
      // Back to offline: device access marks it online at its next message.
      to: 0,
      done: { zh: '已启用', en: 'Enabled' },
      refused: { zh: '只有已停用的设备可以启用', en: 'Only a disabled device can be enabled' },
    },
  },
});
