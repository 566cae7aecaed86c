/** Texts of the device screens (i18n keys under `devicePage`), in both languages. */
export const devicePageTexts = {
  zh: {
    secretTitle: '设备已登记：设备密钥',
    deviceCode: '设备编码',
    secret: 'MQTT 签名密钥',
    secretHelp: '设备用此密钥对上报消息签名（HMAC-SHA256）。关闭后无法再次查看，丢失只能删除设备后重新登记。',
    channels: '通道',
    channelsTitle: '{{name}} 的通道',
    channelNo: '通道号',
    channelCode: '通道编码',
    channelName: '通道名称',
    camera: '关联摄像机',
    status: '状态',
    online: '在线',
    offline: '离线',
    noChannels: '该NVR尚未上报通道',
  },
  en: {
    secretTitle: 'Device registered: its secret',
    deviceCode: 'Device code',
    secret: 'MQTT signing secret',
    secretHelp:
      'The device signs its messages with this secret (HMAC-SHA256). It cannot be shown again once closed; if lost, remove the device and register it again.',
    channels: 'Channels',
    channelsTitle: 'Channels of {{name}}',
    channelNo: 'Channel',
    channelCode: 'Channel code',
    channelName: 'Channel name',
    camera: 'Camera',
    status: 'Status',
    online: 'Online',
    offline: 'Offline',
    noChannels: 'This NVR has reported no channels yet',
  },
};

/**
 * Texts of a camera's config form and effective config (i18n keys under `deviceConfig`, docs/devices.md "Config
 * form"). The item messages are the contract's (configValueTexts in configtemplateitem.ts), as the server's.
 */
export const deviceConfigTexts = {
  zh: {
    label: '配置值',
    effective: '生效配置',
    chooseTemplate: '选择配置模板后在此填写各配置项',
    noItems: '该配置模板没有配置项',
    noTemplate: '未选择配置模板',
    loading: '正在加载配置项…',
    default: '默认 {{value}}',
    range: '范围 {{min}} ~ {{max}}',
    yes: '是',
    no: '否',
    fromDefault: '默认值',
    fromDevice: '设备设置',
    unset: '未设置',
  },
  en: {
    label: 'Config values',
    effective: 'Effective config',
    chooseTemplate: 'Choose a config template to set its items here',
    noItems: 'This config template has no items',
    noTemplate: 'No config template',
    loading: 'Loading the config items…',
    default: 'Default {{value}}',
    range: 'From {{min}} to {{max}}',
    yes: 'Yes',
    no: 'No',
    fromDefault: 'Default',
    fromDevice: 'Set on the device',
    unset: 'Not set',
  },
};
