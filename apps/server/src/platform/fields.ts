import { z } from 'zod';
import { fill, type Msg } from '@atrium/contract';
import { platformTexts } from './messages.ts';

/**
 * Field messages of request schemas are written in Chinese (the product's texts); each is registered with its
 * English twin so the error handler can answer in the request's language.
 */
const english = new Map<string, string>();

export const fieldText = (zh: string, en: string) => {
  english.set(zh, en);
  return zh;
};

/** `fieldText` for a catalogue Msg: the zod message stays the Chinese text, its English twin registered. */
export const fieldMsg = (m: Msg) => fieldText(m.zh, m.en);

const atMost = (max: number) => fieldMsg(fill(platformTexts.atMost, { max }));

export const translateField = (message: string, lang: 'zh' | 'en') =>
  lang === 'en' ? (english.get(message) ?? message) : message;

/** A required text field: missing, empty or blank → `zh` (in English: `en`). */
export const requiredText = (zh: string, en: string, max: number) => {
  const m = fieldText(zh, en);
  return z.string({ error: m }).trim().min(1, m).max(max, atMost(max));
};

export const optionalText = (max: number) => z.string().trim().max(max, atMost(max)).optional().nullable();

/** A required integer in a range, accepting numeric strings. */
export const requiredInt = (zh: string, en: string, min: number, max: number) => {
  const m = fieldText(zh, en);
  return z.coerce.number({ error: m }).int(m).min(min, m).max(max, m);
};

export const flag = (zh: string, en: string) => {
  const m = fieldText(zh, en);
  return z.coerce.number({ error: m }).int(m).min(0, m).max(1, m);
};
