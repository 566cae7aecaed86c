/** Texts of the blacklist module (the message catalogue's per-module part). */
export const blacklistTexts = {
  badValue: {
    1: { zh: '手机号应为 11 位数字', en: 'A phone is 11 digits' },
    2: { zh: 'IP 地址或网段格式不正确', en: 'Not an IP address or CIDR range' },
    3: { zh: '敏感词不能含空白', en: 'A word has no spaces' },
    4: { zh: '邮箱域名格式不正确', en: 'Not an email domain' },
    5: { zh: '设备编码应为 20 位数字', en: 'A device code is 20 digits' },
  },
};
