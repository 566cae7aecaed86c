import { langOf } from '../components/crud/texts';

/**
 * English names of what a new database or tenant starts with (apps/server/src/db/seed-data: the platform tenant,
 * its administrator, the seeded roles, departments and posts). They are data stored in Chinese; an English console
 * shows a seeded name in English while it is still the seeded one — a name someone has changed is shown as stored.
 * `seeded.test.ts` checks that every seeded name has its entry here.
 */
export const seededNamesEn: Record<string, string> = {
  管理组: 'Administration group',
  管理员: 'Administrator',
  超级管理员: 'Super administrator',
  供应商管理员: 'Supplier administrator',
  区域管理员: 'Region administrator',
  城市管理员: 'City administrator',
  领导: 'Leader',
  'Atrium 城市运营中心': 'Atrium City Operations Centre',
  技术部: 'Technology',
  运营部: 'Operations',
  首席执行官: 'Chief executive',
  经理: 'Manager',
  职员: 'Staff',
};

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
