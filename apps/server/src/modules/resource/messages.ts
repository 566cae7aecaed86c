import { messages, type Msg } from '@atrium/contract';

/** Texts of the file upload module (the message catalogue's per-module part). */
export const resourceTexts = {
  noFile: { zh: '请选择要上传的文件', en: 'Choose a file to upload' },
  badType: { zh: '文件类型不支持', en: 'This file type is not supported' },
  // The same text as Fastify's own multipart limit error gets (platform/http.ts), wherever the limit trips.
  tooLarge: messages.fileTooLarge,
  uploaded: { zh: '上传成功', en: 'Uploaded' },
} satisfies Record<string, Msg>;
