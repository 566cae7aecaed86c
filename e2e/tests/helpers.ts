import fs from 'node:fs';
import { createHash } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

const captchaFile = () => {
  const f = process.env.ATRIUM_E2E_CAPTCHA_FILE;
  if (!f) throw new Error('ATRIUM_E2E_CAPTCHA_FILE is not set (run through playwright.config.ts)');
  return f;
};

/** Reads the code of the captcha the server drew for `key`, as a person would read it off the image. */
export async function captchaCode(key: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const line = fs
      .readFileSync(captchaFile(), 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${key} `));
    if (line) return line.split(' ')[1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no captcha ${key}`);
}

/** Opens /login, waits for its captcha, and returns the captcha's code. */
export async function openLogin(page: Page): Promise<string> {
  await page.goto('/login');
  return currentCaptchaCode(page);
}

/** The code of the captcha image shown now (its key is on the image; the code only in the harness file). */
export async function currentCaptchaCode(page: Page): Promise<string> {
  const key = await page.locator('img[data-captcha-key]').getAttribute('data-captcha-key');
  return captchaCode(key!);
}

export async function login(page: Page, opts: { tenantId?: string; account?: string; password?: string } = {}) {
  const code = await openLogin(page);
  const tenant = page.getByPlaceholder(/租户|tenant/i);
  if (await tenant.count()) await tenant.first().fill(opts.tenantId ?? '000000');
  await page
    .getByPlaceholder(/用户名|账号|user name|account/i)
    .first()
    .fill(opts.account ?? 'admin');
  await page
    .getByPlaceholder(/^(请输入)?密码|password/i)
    .first()
    .fill(opts.password ?? 'admin');
  await page
    .getByPlaceholder(/验证码|captcha/i)
    .first()
    .fill(code);
  await page.getByRole('button', { name: /登\s*录|log\s*in/i }).click();
  await expect(page).toHaveURL(/\/wel\/index/);
}

/**
 * Goes to `path` inside the running console, as a link would (no reload: the kept tabs stay mounted).
 * The router follows the history entry on popstate.
 */
export async function spaGo(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect
    .poll(() => {
      const url = new URL(page.url());
      return url.pathname + url.search;
    })
    .toBe(path);
}

/** Signs the platform administrator (tenant 000000, admin / admin) in through the API, as the login page does. */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const captcha = await request.get('/api/blade-auth/oauth/captcha');
  expect(captcha.ok()).toBeTruthy();
  const { key } = (await captcha.json()) as { key: string };
  const res = await request.post('/api/blade-auth/oauth/token', {
    headers: {
      Authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0',
      'Tenant-Id': '000000',
      'Captcha-Key': key,
      'Captcha-Code': await captchaCode(key),
    },
    params: {
      tenantId: '000000',
      username: 'admin',
      password: createHash('md5').update('admin').digest('hex'),
      grant_type: 'captcha',
      scope: 'all',
      type: 'account',
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The console's sidebar. */
export const sidebar = (page: Page) => page.getByTestId('sidebar');
/**
 * Opens a screen from the sidebar: its group first when the screen is not showing, then the screen, until `opened`
 * holds (a URL to reach, or a check). The group's opening animation is waited out before the click: a click while it
 * runs can land on nothing (seen through the cluster: the page stayed on home, nothing was asked of the server), and
 * should one still be lost, a person would click again.
 */
export async function openSidebar(
  page: Page,
  groupName: string,
  screenName: string,
  opened: RegExp | (() => Promise<void>),
) {
  const menu = sidebar(page);
  const item = menu.locator('.ant-menu-sub').getByText(screenName, { exact: true });
  await expect(async () => {
    if (!(await item.isVisible()))
      await menu.locator('.ant-menu-submenu-title').getByText(groupName, { exact: true }).click();
    await expect(menu.locator('.ant-motion-collapse')).toHaveCount(0);
    await item.click({ timeout: 5_000 });
    if (opened instanceof RegExp) await expect(page).toHaveURL(opened, { timeout: 3_000 });
    else await opened();
  }).toPass({ timeout: 30_000 });
}

/**
 * Clicks `target` until `done` holds: a click that lands while a dialog or dropdown is still opening is lost (seen
 * in CI on a slow host: the dialog stayed, nothing was sent), and a person would click again. No second click while
 * the first is still being answered (the button's loading state) or once the target is gone.
 */
export async function clickUntil(target: Locator, done: () => Promise<void>, timeout = 20_000) {
  await expect(async () => {
    if ((await target.isVisible()) && !/\bant-btn-loading\b/.test((await target.getAttribute('class')) ?? ''))
      await target.click({ timeout: 3_000 });
    await done();
  }).toPass({ timeout });
}

/** Logs in; a first password is changed on the page the console forces. */
export async function loginChanging(page: Page, tenantId: string, account: string, password: string, next: string) {
  await page.goto('/login');
  const code = await currentCaptchaCode(page);
  await page.getByPlaceholder(/租户/).fill(tenantId);
  await page.getByPlaceholder(/用户名/).fill(account);
  await page.getByPlaceholder(/^(请输入)?密码/).fill(password);
  await page.getByPlaceholder(/验证码/).fill(code);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(/\/info\/index\?tab=password/);
  await page.getByLabel('原密码').fill(password);
  await page.getByLabel('新密码').fill(next);
  await page.getByLabel('确认密码').fill(next);
  await page.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('修改成功').first()).toBeVisible();
}

/** Opens a crud screen from the sidebar (`openSidebar`): done once the page on show has the screen's title. */
export async function openScreen(page: Page, group: string, screen: string) {
  // The tab of the screen is active once its page shows its own title (other tabs stay alive, hidden).
  await openSidebar(page, group, screen, () =>
    expect(page.locator('[data-testid="crud-page"]:visible').first()).toContainText(screen, { timeout: 3_000 }),
  );
}
/** The crud page on show (hidden keep-alive tabs stay in the DOM). */
export const visibleCrud = (page: Page) => page.locator('[data-testid="crud-page"]:visible');
/** The dialog on top. */
export const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
