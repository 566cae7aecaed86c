/**
 * The device dictionary and config templates every tenant starts with (docs/devices.md "Device records"): the
 * GB/T 28181 types the console knows, a few manufacturers under each and a model or two. Codes are what devices
 * store; names are bilingual (`name_en`).
 */
export type DeviceDictSeed = { code: string; name: string; nameEn: string; children?: DeviceDictSeed[] };

const makers = (models: Record<string, [string, string][]>): DeviceDictSeed[] => [
  {
    code: 'hikvision',
    name: '海康威视',
    nameEn: 'Hikvision',
    children: (models.hikvision ?? []).map(([code, name]) => ({ code, name, nameEn: name })),
  },
  {
    code: 'dahua',
    name: '大华',
    nameEn: 'Dahua',
    children: (models.dahua ?? []).map(([code, name]) => ({ code, name, nameEn: name })),
  },
  {
    code: 'uniview',
    name: '宇视',
    nameEn: 'Uniview',
    children: (models.uniview ?? []).map(([code, name]) => ({ code, name, nameEn: name })),
  },
];

export const deviceDictSeed: DeviceDictSeed[] = [
  {
    code: '131',
    name: '摄像机',
    nameEn: 'Camera',
    children: makers({
      hikvision: [['DS-2CD3T47', 'DS-2CD3T47']],
      dahua: [['DH-IPC-HFW2431', 'DH-IPC-HFW2431']],
      uniview: [['IPC2124', 'IPC2124']],
    }),
  },
  {
    code: '132',
    name: '网络摄像机',
    nameEn: 'IP camera',
    children: makers({
      hikvision: [
        ['DS-2DE4425IW', 'DS-2DE4425IW'],
        ['DS-2CD2345', 'DS-2CD2345'],
      ],
      dahua: [['SD49425XB', 'SD49425XB']],
      uniview: [['IPC6322', 'IPC6322']],
    }),
  },
  {
    code: '118',
    name: '网络视频录像机(NVR)',
    nameEn: 'Network video recorder (NVR)',
    children: makers({
      hikvision: [['DS-7608N', 'DS-7608N']],
      dahua: [['DHI-NVR4208', 'DHI-NVR4208']],
      uniview: [['NVR301-08', 'NVR301-08']],
    }),
  },
];

export type ConfigItemSeed = {
  itemKey: string;
  itemName: string;
  valueType: 'string' | 'number' | 'boolean' | 'enum';
  defaultValue?: string;
  options?: string;
  unit?: string;
  min?: number;
  max?: number;
  required?: 0 | 1;
};

export const configTemplateSeed: {
  name: string;
  deviceType: string;
  remark: string;
  items: ConfigItemSeed[];
}[] = [
  {
    name: '摄像机默认配置',
    deviceType: '131',
    remark: '视频参数的默认值',
    items: [
      {
        itemKey: 'resolution',
        itemName: '分辨率',
        valueType: 'enum',
        options: '4K,1080P,720P,D1',
        defaultValue: '1080P',
        required: 1,
      },
      { itemKey: 'frameRate', itemName: '帧率', valueType: 'number', defaultValue: '25', min: 1, max: 60, unit: 'fps' },
      {
        itemKey: 'bitrate',
        itemName: '码率',
        valueType: 'number',
        defaultValue: '2048',
        min: 256,
        max: 16384,
        unit: 'kbps',
      },
      { itemKey: 'osd', itemName: '显示时间水印', valueType: 'boolean', defaultValue: 'true' },
      { itemKey: 'osdText', itemName: '水印文字', valueType: 'string' },
    ],
  },
  {
    name: '网络摄像机默认配置',
    deviceType: '132',
    remark: '视频参数的默认值',
    items: [
      {
        itemKey: 'resolution',
        itemName: '分辨率',
        valueType: 'enum',
        options: '4K,1080P,720P',
        defaultValue: '1080P',
        required: 1,
      },
      { itemKey: 'frameRate', itemName: '帧率', valueType: 'number', defaultValue: '25', min: 1, max: 60, unit: 'fps' },
      { itemKey: 'ptzSpeed', itemName: '云台默认速度', valueType: 'number', defaultValue: '4', min: 1, max: 8 },
    ],
  },
];

/** The local demo's camera network (NODE_ENV=development; docs/devices.md "Camera addresses"). */
export const demoCameraNetworkSeed = {
  name: '本机（演示）',
  cidr: '127.0.0.0/8',
  remark: 'Local demo: the test camera and ONVIF fake on 127.0.0.1 (README "Live video")',
};
