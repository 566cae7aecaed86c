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
  uploaded: { zh: '上传成功', en: 'Uploaded' },
} satisfies Record<string, Msg>;
