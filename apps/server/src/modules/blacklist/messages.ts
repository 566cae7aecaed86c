import { BLACK_TYPE } from './enforce.ts';

/** Texts of the blacklist module (the message catalogue's per-module part). */
export const blacklistTexts = {
  badValue: {
    [BLACK_TYPE.phone]: { zh: '手机号应为 11 位数字', en: 'A phone is 11 digits' },
    [BLACK_TYPE.ip]: { zh: 'IP 地址或网段格式不正确', en: 'Not an IP address or CIDR range' },
    [BLACK_TYPE.word]: { zh: '敏感词不能含空白', en: 'A word has no spaces' },
    [BLACK_TYPE.emailDomain]: { zh: '邮箱域名格式不正确', en: 'Not an email domain' },
    [BLACK_TYPE.deviceCode]: { zh: '设备编码应为 20 位数字', en: 'A device code is 20 digits' },
  },
  /** `{network}`: the range written with its host bits cleared. */
  hostBits: {
    zh: '网段的主机位应为 0，请写作 {network}',
    en: 'The range has host bits set; write it as {network}',
  },
  tooWide: {
    zh: '网段过大：IPv4 至少 /8，IPv6 至少 /16',
    en: 'The range is too wide: at least /8 for IPv4 and /16 for IPv6',
  },
  emailAddress: {
    zh: '请填写邮箱域名（如 example.com），不是完整邮箱地址',
    en: 'Enter the email domain (e.g. example.com), not a whole address',
  },
};
