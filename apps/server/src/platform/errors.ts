import { messages, msg } from '@atrium/contract';
export type Lang = 'zh' | 'en';
export type Text = string | { zh: string; en: string };

/** A field's error; a Msg message is rendered in the request's language. */
export type FieldError = { field: string; message: string | { zh: string; en: string } };

/** An error the client should see as-is: status, a text in both languages, optional field errors. */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 500 | 503,
    readonly text: Text,
    readonly fields?: FieldError[],
  ) {
    super(typeof text === 'string' ? text : text.zh);
  }
}

/** The generic texts, from the one catalogue (packages/contract/src/resource/messages.ts). */
export const texts = messages;

export const badRequest = (text: Text, fields?: FieldError[]) => new AppError(400, text, fields);
export const notFound = () => new AppError(404, texts.notFound);
export const unauthorized = () => new AppError(401, texts.unauthorized);
export const forbidden = (code: string) => new AppError(403, msg('forbidden', { code }));

export function langOf(acceptLanguage: string | undefined): Lang {
  return acceptLanguage && /^en\b/i.test(acceptLanguage.trim()) ? 'en' : 'zh';
}

export function render(text: Text, lang: Lang): string {
  return typeof text === 'string' ? text : text[lang];
}
