import { messages, type Msg } from '@atrium/contract';

/** Texts of the file upload module (the message catalogue's per-module part). */
export const resourceTexts = {
  noFile: { zh: '请选择要上传的文件', en: 'Choose a file to upload' },
  badType: { zh: '文件类型不支持', en: 'This file type is not supported' },
  // The same text as Fastify's own multipart limit error gets (platform/http.ts), wherever the limit trips.
  tooLarge: messages.fileTooLarge,
  badMultipart: {
    zh: '上传内容不完整或格式错误，请重新选择文件上传',
    en: 'The upload is incomplete or malformed; choose the file and upload it again',
  },
  badFileName: {
    zh: '文件名含有控制字符，请改名后再上传',
    en: 'The file name holds control characters; rename the file and upload it again',
  },
  badPathName: {
    zh: '文件名不能含有路径（/、\\ 或 ..），请改名后再上传',
    en: 'The file name cannot hold a path (/, \\ or ..); rename the file and upload it again',
  },
  longFileName: {
    zh: '文件名过长（最多 255 个字符），请改名后再上传',
    en: 'The file name is too long (255 characters at most); rename the file and upload it again',
  },
  extensionMismatch: {
    zh: '文件内容与扩展名不符，请检查后再上传',
    en: 'The file’s content does not match its extension; check the file and upload it again',
  },
  storageUnreachable: {
    zh: '存储服务暂时无法连接，文件未保存，请稍后重试或检查对象存储配置',
    en: 'The storage service cannot be reached; the file was not stored. Try again later or check the object storage configuration',
  },
  storageRefused: {
    zh: '存储服务拒绝了访问密钥或存储桶，文件未保存，请检查对象存储配置',
    en: 'The storage service refused the keys or the bucket; the file was not stored. Check the object storage configuration',
  },
  needS3: {
    zh: 'S3 兼容存储需填写服务地址、存储桶、AccessKey 和 SecretKey',
    en: 'S3-compatible storage needs the endpoint, bucket, access key and secret key',
  },
  endpointRefused: {
    zh: '服务地址 {host} 指向内部或保留网络，不允许使用',
    en: 'The endpoint {host} points into an internal or reserved network and cannot be used',
  },
  uploaded: { zh: '上传成功', en: 'Uploaded' },
} satisfies Record<string, Msg>;
