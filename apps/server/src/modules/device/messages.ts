/** Texts of the device module (docs/devices.md "Device records"). */
export const deviceTexts = {
  codeFormat: { zh: '设备编码必须是20位数字', en: 'A device code is 20 digits' },
  codeDistrict: {
    zh: '设备编码前6位 {district} 不是行政区划中的区县',
    en: 'The first 6 digits of the device code ({district}) are not a district of the region table',
  },
  codeType: {
    zh: '设备编码第11-13位（{type}）必须与设备类型 {deviceType} 一致',
    en: 'Digits 11-13 of the device code ({type}) must equal the device type {deviceType}',
  },
  typeUnknown: {
    zh: '设备类型 {type} 不是设备字典中的设备类型',
    en: 'Device type {type} is not a device type of the device dictionary',
  },
  manufacturerUnknown: {
    zh: '厂商 {code} 不在该设备类型的字典中',
    en: 'Manufacturer {code} is not in the dictionary under this device type',
  },
  modelUnknown: {
    zh: '型号 {code} 不在该厂商的字典中',
    en: 'Model {code} is not in the dictionary under this manufacturer',
  },
  modelWithoutMaker: { zh: '选择型号前请先选择厂商', en: 'Choose the manufacturer before the model' },
  regionUnknown: { zh: '所属区域 {region} 不存在', en: 'Region {region} does not exist' },
  regionMismatch: {
    zh: '所属区域必须在设备编码所属区县 {district} 之内',
    en: 'The region must lie within district {district} of the device code',
  },
  blocked: { zh: '该设备编码已被列入黑名单', en: 'This device code is blacklisted' },
  outsideScope: {
    zh: '只能登记在本人数据范围（本区域或本客户）内的设备',
    en: 'Devices can only be registered within your own data scope (your region or your client)',
  },
  outsideClientRegion: {
    zh: '设备所在区域须在所属客户的区域（{region}）及其下级区域内',
    en: "The device's region must lie within its client's region ({region}) or below",
  },
  clientUnknown: { zh: '所属客户不存在或未审核通过', en: 'The client does not exist or is not approved' },
  nvrUnknown: { zh: '所属NVR不存在', en: 'The NVR does not exist' },
  nvrNotNvr: { zh: '所选设备不是NVR（设备类型118）', en: 'The device chosen is not an NVR (device type 118)' },
  nvrBehindNvr: { zh: 'NVR不能挂在另一台NVR下', en: 'An NVR cannot sit behind another NVR' },
  nvrSelf: { zh: '设备不能挂在自身下', en: 'A device cannot sit behind itself' },
  channelTaken: {
    zh: '该NVR的通道 {no} 已关联摄像机“{name}”，请先解除',
    en: 'Channel {no} of this NVR is already linked to camera "{name}"; unlink it first',
  },
  channelTakenRace: {
    zh: '该NVR通道已被其他摄像机关联，请刷新后重试',
    en: 'This NVR channel has just been linked to another camera; refresh and try again',
  },
  channelCameraIsNvr: { zh: '通道只能关联摄像机，不能关联NVR', en: 'A channel links a camera, not an NVR' },
  cameraTwice: {
    zh: '同一摄像机不能同时关联通道 {a} 和 {b}',
    en: 'One camera cannot be linked to both channel {a} and channel {b}',
  },
  channelWithoutNvr: {
    zh: '填写NVR通道号时须选择所属NVR',
    en: 'A channel number needs the NVR it belongs to',
  },
  templateUnknown: { zh: '配置模板不存在', en: 'The config template does not exist' },
  templateDisabled: { zh: '配置模板已停用', en: 'The config template is disabled' },
  templateType: {
    zh: '配置模板的设备类型（{type}）与设备类型不一致',
    en: 'The config template is for device type {type}, not this one',
  },
  configWithoutTemplate: {
    zh: '填写配置值前请先选择配置模板',
    en: 'Choose a config template before giving config values',
  },
  // Config-value texts (and rules) are the contract's: configValueTexts in configtemplateitem.ts.
  streamUrlBad: {
    zh: '视频流地址须以 rtsp://、http:// 或 https:// 开头',
    en: 'A stream URL starts with rtsp://, http:// or https://',
  },
  onvifUrlBad: {
    zh: 'ONVIF 地址须以 http:// 或 https:// 开头',
    en: 'An ONVIF URL starts with http:// or https://',
  },
  // Camera addresses (docs/devices.md "Camera addresses"): staff read the reason, a client account one text.
  addressUnresolved: {
    zh: '地址中的主机名 {host} 无法解析',
    en: 'The host name {host} of this address does not resolve',
  },
  addressForbidden: {
    zh: '不允许使用该地址（{address}）：链路本地、未指定、组播或广播地址不能作为摄像机地址',
    en: 'This address ({address}) is not allowed: link-local, unspecified, multicast and broadcast addresses are never a camera',
  },
  addressPrivate: {
    zh: '地址 {address} 属于内网或本机网段，但不在本租户登记的摄像机网络中（设备管理 → 摄像机网络）',
    en: 'The address {address} is private or loopback and lies in none of the tenant’s camera networks (Devices → Camera networks)',
  },
  addressServerPort: {
    zh: '不允许使用本服务器自身的端口 {port}',
    en: 'The server’s own port {port} is not allowed',
  },
  addressNotAllowed: {
    zh: '该地址不能作为摄像机地址',
    en: 'This address cannot be used for a camera',
  },
  cidrBad: {
    zh: '网段须为 CIDR 格式，如 10.20.0.0/16 或 fd00::/8',
    en: 'The network must be a CIDR such as 10.20.0.0/16 or fd00::/8',
  },
  cidrNever: {
    zh: '该网段不能登记：链路本地、未指定、组播或广播地址永远不能作为摄像机地址',
    en: 'This network cannot be listed: link-local, unspecified, multicast and broadcast addresses are never a camera',
  },
  subDomainUnknown: { zh: '子域名不存在', en: 'The sub-domain does not exist' },
  subDomainOtherClient: {
    zh: '设备只能绑定到所属客户的子域名',
    en: "A device binds only to its own client's sub-domain",
  },
  nvrHasChildren: {
    zh: 'NVR“{name}”下还有通道或摄像机，请先删除它们',
    en: 'NVR "{name}" still has channels or cameras; remove them first',
  },
  dictTypeCode: {
    zh: '设备类型（一级字典项）的编码必须是三位数字，如 131',
    en: 'A device type (level-1 entry) has a three-digit code, e.g. 131',
  },
  dictTooDeep: {
    zh: '设备字典最多三级：类型、厂商、型号',
    en: 'The device dictionary has three levels: type, manufacturer, model',
  },
  dictInUse: {
    zh: '字典项“{name}”正被设备或配置模板使用，不能删除',
    en: 'Entry "{name}" is used by devices or config templates and cannot be removed',
  },
  templateInUse: {
    zh: '配置模板“{name}”正被设备使用，不能删除',
    en: 'Template "{name}" is used by devices and cannot be removed',
  },
  channelNoBad: {
    zh: '通道号必须是 1 到 9999 的整数',
    en: 'A channel number is a whole number from 1 to 9999',
  },
  channelNoDup: { zh: '通道号 {no} 重复', en: 'Channel {no} appears twice' },
  channelCodeBad: { zh: '通道 {no} 的编码必须是20位数字', en: 'The code of channel {no} must be 20 digits' },
  channelNameBad: {
    zh: '通道 {no} 的名称最多 64 个字符',
    en: 'The name of channel {no} is at most 64 characters',
  },
  channelsTooMany: { zh: '一台NVR最多 {max} 个通道', en: 'An NVR has at most {max} channels' },
  cameraUnknown: { zh: '关联的摄像机不存在', en: 'The linked camera does not exist' },
  channelsSaved: {
    zh: '已保存通道：新增 {added}，更新 {updated}，移除 {removed}',
    en: 'Channels saved: {added} added, {updated} updated, {removed} removed',
  },
};
