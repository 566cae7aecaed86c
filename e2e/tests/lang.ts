import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import zhWeb from '../../apps/web/src/i18n/zh.ts';
import enWeb from '../../apps/web/src/i18n/en.ts';
import { menuSeed } from '../../apps/server/src/db/seed-data/menus.ts';
import { adminToken, currentCaptchaCode, openSidebar } from './helpers.ts';

/**
 * What the journeys run in both languages share (docs/web.md "Languages"): the language picked on the login page as
 * a user does, texts expected from the web app's catalogues and the menu seed, sign-in (with the forced first password
 * change) and an API caller for the platform administrator.
 */

export const TENANT = '000000';
export type Lang = 'zh' | 'en';
export const LANGS: Lang[] = ['zh', 'en'];

/** The web app's catalogue of one language. */
export const webTexts = (lang: Lang) => (lang === 'zh' ? zhWeb : enWeb);

/** A sidebar group's and screen's names in one language, from the menu seed. */
export function menuNames(lang: Lang, group: string, screen: string) {
  const g = menuSeed.find((m) => m.code === group)!;
  const s = g.children!.find((m) => m.code === screen)!;
  const name = (m: { name: string; alias?: string }) => (lang === 'zh' ? m.name : m.alias!);
  return { group: name(g), screen: name(s) };
}

/** `{name}` / `{{name}}` placeholders of a message as a pattern: each placeholder matches `groups[name]`. */
export function pattern(text: string, groups: Record<string, string> = {}, flags = '') {
  let source = '';
  for (const part of text.split(/(\{\{?\w+\}?\})/)) {
    const name = /^\{\{?(\w+)\}?\}$/.exec(part)?.[1];
    source += name ? (groups[name] ?? '.*?') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(source, flags);
}

/**
 * A button's name, whatever the spaces (antd shows two Chinese characters with a space between them) and with the
 * name of its icon, if any, before it.
 */
export const buttonName = (text: string) =>
  new RegExp(
    `^(?:[a-z-]+ )?${[...text.replace(/\s+/g, '')].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')}$`,
  );

type Envelope<T> = { code: number; success: boolean; msg: string; data: T };
export type Row = Record<string, unknown>;
export const rowsOf = (data: unknown): Row[] =>
  Array.isArray(data) ? (data as Row[]) : (((data as { records?: Row[] } | null)?.records ?? []) as Row[]);

/** An API caller signed in as the platform administrator. */
export async function adminApi(request: APIRequestContext) {
  const token = await adminToken(request);
  const headers = { 'Blade-Auth': `bearer ${token}`, 'Tenant-Id': TENANT };
  const check = async <T>(res: Awaited<ReturnType<APIRequestContext['get']>>) => {
    const text = await res.text();
    expect(res.ok(), `${res.url()}: ${text}`).toBeTruthy();
    return (JSON.parse(text) as Envelope<T>).data;
  };
  return {
    get: async <T = unknown>(url: string, params?: Record<string, string | number>) =>
      check<T>(await request.get(url, { headers, params })),
    post: async <T = unknown>(url: string, data: unknown) => check<T>(await request.post(url, { headers, data })),
  };
}

/** Picks the language with the switch of the login or public page (kept for the rest of the browser context). */
export async function chooseLanguage(page: Page, lang: Lang) {
  const button = page.getByRole('button', { name: buttonName(webTexts(lang).languages[lang]) });
  if (await button.isEnabled()) await button.click();
  await expect(button).toBeDisabled();
  await expect(page.locator('html')).toHaveAttribute('lang', lang === 'en' ? 'en' : 'zh-CN');
}

/** Signs in on the login page, in `lang` (the caller expects where it lands). */
export async function signIn(page: Page, lang: Lang, account: string, password: string) {
  const web = webTexts(lang);
  await page.goto('/login');
  await chooseLanguage(page, lang);
  const code = await currentCaptchaCode(page);
  const tenant = page.getByPlaceholder(web.login.tenant, { exact: true });
  if (await tenant.count()) await tenant.fill(TENANT);
  await page.getByPlaceholder(web.login.username, { exact: true }).fill(account);
  await page.getByPlaceholder(web.login.password, { exact: true }).fill(password);
  await page.getByPlaceholder(web.login.captcha, { exact: true }).fill(code);
  await page.getByRole('button', { name: buttonName(web.login.submit) }).click();
}

/** Signs in; a first password is changed on the page the console forces. */
export async function signInChanging(page: Page, lang: Lang, account: string, password: string, next: string) {
  const web = webTexts(lang);
  await signIn(page, lang, account, password);
  await expect(page).toHaveURL(/\/info\/index\?tab=password/);
  await page.getByLabel(web.info.oldPassword, { exact: true }).fill(password);
  await page.getByLabel(web.info.newPassword, { exact: true }).fill(next);
  await page.getByLabel(web.info.newPassword1, { exact: true }).fill(next);
  await page.getByRole('button', { name: buttonName(web.common.submit) }).click();
  await expect(page.getByText(web.info.updated, { exact: true }).first()).toBeVisible();
}

/** Opens a screen from the sidebar: its group first when the screen is not showing (`work_` screens drop it). */
export async function openMenu(page: Page, lang: Lang, group: string, screen: string) {
  const { group: groupName, screen: screenName } = menuNames(lang, group, screen);
  const path = `/${group}/${screen.replace(/^work_/, '')}`;
  await openSidebar(page, groupName, screenName, new RegExp(`${path}(/|$|\\?)`));
}
