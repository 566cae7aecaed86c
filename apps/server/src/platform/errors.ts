export type Lang = 'zh' | 'en';
export type Text = string | { zh: string; en: string };

export type FieldError = { field: string; message: string };

/** An error the client should see as-is: status, a text in both languages, optional field errors. */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 500,
    readonly text: Text,
    readonly fields?: FieldError[],
  ) {
    super(typeof text === 'string' ? text : text.zh);
  }
}

export const texts = {
  ok: { zh: '操作成功', en: 'Success' },
  unauthorized: { zh: '请求未授权', en: 'Unauthorized' },
  notFound: { zh: '数据不存在', en: 'Not found' },
  pathNotFound: { zh: '接口不存在', en: 'No such API' },
  stale: { zh: '数据已被他人修改，请刷新后重试', en: 'The record was changed by someone else; reload and try again' },
  unknown: { zh: '服务器内部错误', en: 'Internal server error' },
  badRequest: { zh: '请求参数错误', en: 'Bad request' },
} as const;

export const badRequest = (text: Text, fields?: FieldError[]) => new AppError(400, text, fields);
export const notFound = () => new AppError(404, texts.notFound);
export const unauthorized = () => new AppError(401, texts.unauthorized);
export const forbidden = (code: string) =>
  new AppError(403, { zh: `没有权限：缺少 ${code}`, en: `Forbidden: missing permission ${code}` });

export function langOf(acceptLanguage: string | undefined): Lang {
  return acceptLanguage && /^en\b/i.test(acceptLanguage.trim()) ? 'en' : 'zh';
}

export function render(text: Text, lang: Lang): string {
  return typeof text === 'string' ? text : text[lang];
}
