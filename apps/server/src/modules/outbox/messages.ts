import type { Msg } from '@atrium/contract';

/** Texts of the outbox, SMS and email modules (the message catalogue's per-module part). */
export const outboxTexts = {
  badPhone: {
    zh: '手机号应为 11 位数字（或 + 开头的国际号码）',
    en: 'A phone is 11 digits (or an international number starting with +)',
  },
  badEmail: { zh: '收件地址不是有效的邮箱', en: 'Not an email address' },
  noRecipient: { zh: '请填写接收人', en: 'Give at least one recipient' },
  tooManyRecipients: { zh: '一次最多发送 100 个号码', en: 'At most 100 numbers at once' },
  badAttach: { zh: '附件不存在', en: 'An attachment does not exist' },
  tooManyAttach: { zh: '附件最多 20 个', en: 'At most 20 attachments' },
  emptyMessage: { zh: '消息内容不能为空', en: 'The message has no text' },
  badParams: { zh: '参数应为键值对象', en: 'Parameters are an object of names and values' },
  unknownCode: { zh: '没有此编号的短信配置', en: 'No SMS configuration has this code' },
  queued: { zh: '已加入发送队列', en: 'Queued' },
  needKeys: {
    zh: '阿里云、腾讯云短信需要 AccessKey 和 SecretKey',
    en: 'Aliyun and Tencent Cloud need the access key and the secret key',
  },
  needTemplate: {
    zh: '阿里云、腾讯云短信需要模板编号和短信签名',
    en: 'Aliyun and Tencent Cloud need the template ID and the signature',
  },
  needAppId: { zh: '腾讯云短信需要应用 ID（SmsSdkAppId）', en: 'Tencent Cloud needs the app ID (SmsSdkAppId)' },
  needEndpoint: { zh: 'HTTP 回调需要接口地址', en: 'A webhook needs its endpoint' },
  // Delivery errors, stored in English in `last_error` (an operator's diagnostic, like a log line).
  secretUnreadable: {
    zh: '密钥无法解密（服务器签名密钥已更换），请重新填写',
    en: 'The stored secret cannot be opened (the server signing key changed): enter it again',
  },
  testSubject: { zh: 'Atrium 测试邮件', en: 'Atrium test email' },
  testBody: {
    zh: '这是 Atrium 通过邮件服务器 {server} 发送的测试邮件。',
    en: 'This is a test email sent by Atrium through the SMTP server {server}.',
  },
  configGone: { zh: '指定的配置已不存在', en: 'The configuration named no longer exists' },
} satisfies Record<string, Msg>;
