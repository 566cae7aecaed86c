import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { expect, test } from './fixtures.ts';
import { login, openLogin, openSidebar } from './helpers.ts';

test('a wrong captcha shows the server message and no session is set', async ({ page }) => {
  await openLogin(page);
  await page
    .getByPlaceholder(/用户名|账号/)
    .first()
    .fill('admin');
  await page
    .getByPlaceholder(/^(请输入)?密码/)
    .first()
    .fill('admin');
  await page
    .getByPlaceholder(/验证码/)
    .first()
    .fill('zzzz');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByText('验证码不正确')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('log in through the captcha and see the server menus', async ({ page }) => {
  await login(page);
  const sider = page.locator('.ant-layout-sider, aside').first();
  await expect(sider.getByText('系统管理').first()).toBeVisible();
  // The signed-in user by name in the header (the seeded administrator's real name).
  await expect(page.locator('.atrium-user-name')).toHaveText('管理员');
});

test('open pages into tags and close them', async ({ page }) => {
  await login(page);
  const tags = page.locator('[data-testid="tags-bar"]');
  // Through the user menu, as a person would.
  await page.locator('[data-testid="user-menu"]').click();
  await page.getByRole('menuitem', { name: '个人信息' }).click();
  await expect(page).toHaveURL(/\/info\/index/);
  await expect(tags.locator('[data-tag="/info/index"]')).toBeVisible();
  // A reload keeps the tags (session storage).
  await page.goto('/test/index');
  await expect(page.getByText('这是一个测试页面')).toBeVisible();
  // The counter survives switching tabs (keep-alive).
  await page.getByTestId('counter').click();
  await page.getByTestId('counter').click();
  await tags.locator('[data-tag="/info/index"]').click();
  await expect(page).toHaveURL(/\/info\/index/);
  await tags.locator('[data-tag="/test/index"]').click();
  await expect(page.getByTestId('counter')).toContainText('2');
  await expect(tags.getByText('首页')).toBeVisible();
  await expect(tags.locator('[data-tag]')).toHaveCount(3);
  // Closing the active tag activates the previous one.
  await tags.locator('[data-tag="/test/index"] .atrium-tag-close').click();
  await expect(page).toHaveURL(/\/info\/index/);
  await expect(tags.locator('[data-tag]')).toHaveCount(2);
  // The home tag cannot be closed.
  await expect(tags.locator('[data-tag="/wel/index"] .atrium-tag-close')).toHaveCount(0);
});

test('switch language and theme', async ({ page }) => {
  await login(page);
  await page.locator('[data-testid="lang-switch"]').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.locator('[data-testid="tags-bar"]').getByText('Home')).toBeVisible();
  await page.locator('[data-testid="lang-switch"]').click();
  await page.getByRole('menuitem', { name: '中文' }).click();
  await expect(page.locator('[data-testid="tags-bar"]').getByText('首页')).toBeVisible();

  await page.locator('[data-testid="theme-picker"]').click();
  await page.locator('[data-theme-option="theme-dark"]').click();
  await expect(page.locator('body')).toHaveClass(/theme-dark/);
  await page.reload();
  await expect(page.locator('body')).toHaveClass(/theme-dark/);
});

test('lock and unlock', async ({ page }) => {
  await login(page);
  await page.locator('[data-testid="lock"]').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog.getByText('锁屏密码不能为空')).toBeVisible();
  await dialog.locator('input').fill('Lock#123');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page).toHaveURL(/\/lock/);
  // The guard keeps a locked user on /lock.
  await page.goto('/wel/index');
  await expect(page).toHaveURL(/\/lock/);
  await page.locator('input[type="password"]').fill('wrong');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/lock/);
  await page.locator('input[type="password"]').fill('Lock#123');
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/lock/);
});

test('upload an avatar', async ({ page }) => {
  // The preview never loads the file input's own value (C:\fakepath\…): no request for it, no CSP refusal.
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /fakepath|Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('request', (r) => {
    if (/fakepath/i.test(decodeURIComponent(r.url()))) problems.push(r.url());
  });
  await login(page);
  await page.goto('/info/index');
  const png = path.join(os.tmpdir(), 'atrium-avatar.png');
  // A real 1×1 PNG.
  fs.writeFileSync(
    png,
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  const uploaded = page.waitForResponse((r) => r.url().includes('/oss/endpoint/put-file'));
  await page.locator('input[type="file"]').setInputFiles(png);
  const res = await uploaded;
  expect((await res.json()).data.link).toMatch(/^\/files\//);
  const avatar = page.locator('img[src^="/files/"]').first();
  await expect(avatar).toBeVisible();
  // Loaded, not a broken image: the files cookie set at sign-in goes with it (docs/system-api.md "Files").
  await expect.poll(() => avatar.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator('img[src*="fakepath"]')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a 401 sends you to /login', async ({ page }) => {
  await login(page);
  // Revoke the session behind the browser's back: its next call answers 401.
  const token = await page.evaluate(() => {
    for (const store of [localStorage, sessionStorage]) {
      for (let i = 0; i < store.length; i++) {
        const k = store.key(i)!;
        if (/token$/i.test(k) && !/refresh/i.test(k)) {
          const v = JSON.parse(store.getItem(k)!);
          return typeof v.content === 'string' ? v.content : null;
        }
      }
    }
    return null;
  });
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  const out = await page.request.get('/api/blade-auth/oauth/logout', {
    headers: {
      'Blade-Auth': `bearer ${token}`,
      Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
    },
  });
  expect(out.status()).toBe(200);
  await page.goto('/info/index');
  await expect(page).toHaveURL(/\/login/);
});

test('log out', async ({ page }) => {
  await login(page);
  await page.locator('[data-testid="user-menu"]').click();
  await page.getByRole('menuitem', { name: /退出/ }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/wel/index');
  await expect(page).toHaveURL(/\/login/);
});

test('a server menu opens from the sidebar and from the menu search', async ({ page }) => {
  await login(page);
  const sider = page.getByTestId('sidebar');
  await openSidebar(page, '系统管理', '机构管理', /\/system\/dept\/index/);
  await expect(page.getByTestId('crud-page')).toContainText('机构管理');
  await expect(page.getByTestId('tags-bar').getByText('机构管理')).toBeVisible();
  await sider.getByText('行政区划').click();
  await expect(page).toHaveURL(/\/system\/region\/index/);
  await expect(page.getByTestId('region-page').filter({ visible: true })).toContainText('浙江省');
  // Every seeded menu is a real screen now: 通知公告 opens its list, not the "not provided" placeholder.
  await openSidebar(page, '工作台', '通知公告', /\/desk\/notice/);
  await expect(page.getByTestId('crud-page').filter({ visible: true })).toContainText('通知公告');
  await expect(page.getByText('此页面尚未在本版本中提供').filter({ visible: true })).toHaveCount(0);
  // Menu search: prefix, case-insensitive; Esc closes it and the main view comes back.
  await page.getByTestId('search-toggle').click();
  await page.getByTestId('search-panel').locator('input').fill('用户');
  await expect(page.getByTestId('search-panel').getByText('用户管理')).toBeVisible();
  await page.getByTestId('search-panel').locator('input').fill('管理');
  await expect(page.getByText('没有匹配的菜单')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('search-panel')).toHaveCount(0);
  // An unknown path goes to /404.
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404/);
});
