/** Texts of the statistics module (the message catalogue's per-module part; docs/devices.md "Statistics"). */
export const statisticsTexts = {
  badRegion: {
    zh: '区划代码应为 00 或 2 到 12 位数字',
    en: 'A region code is 00 or 2 to 12 digits',
  },
  regionNotFound: {
    zh: '区划不存在或不在您的数据范围内',
    en: 'The region does not exist or is outside your data scope',
  },
  badDate: { zh: '日期格式应为 YYYY-MM-DD', en: 'A date is written YYYY-MM-DD' },
  pastDay: { zh: '请选择今天以前的日期', en: 'Choose a day before today' },
  dayTooDeep: {
    zh: '历史统计只到区县级，请选择区县或以上的区划',
    en: 'Past days are kept down to districts only; choose a district or a region above it',
  },
  clientNoHistory: {
    zh: '客户账号只能查看当前的统计',
    en: 'A client account sees the current figures only',
  },
  badDeviceType: { zh: '设备类型代码不正确', en: 'The device type code is not valid' },
  badDays: { zh: '天数应为 1 到 90', en: 'Days must be 1 to 90' },
};
