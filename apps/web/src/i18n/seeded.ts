import { seededNamesEn } from '@atrium/contract';
import { langOf } from '../components/crud/texts';

/** A stored name as the console's language shows it: a seeded name in English, any other as stored. */
export function seededName(name: string, language: string | undefined): string {
  return langOf(language) === 'en' ? (seededNamesEn[name.trim()] ?? name) : name;
}

/** A comma list of stored names (e.g. a user's role names), each as `seededName` shows it. */
export const seededNames = (names: string, language: string | undefined): string =>
  names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
    .map((n) => seededName(n, language))
    .join(', ');
