import { fill, messages, type Lang, type MessageCode } from '@atrium/contract';

/** A catalogue message (the server's own text, packages/contract messages.ts) in one language. */
export function catalogue(code: MessageCode, lang: Lang, params: Record<string, string | number> = {}): string {
  return fill(messages[code], params)[lang];
}

/** The console's two languages, from i18next's language. */
export const langOf = (language: string | undefined): Lang => (language?.startsWith('en') ? 'en' : 'zh');
