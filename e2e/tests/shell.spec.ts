import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { login, openSidebar, spaGo } from './helpers.ts';

const TWELVE = [
  '/system/user/index',
  '/system/dept/index',
  '/system/post/index',
  '/system/role/index',
  '/system/menu/index',
  '/system/topmenu/index',
  '/system/param/index',
  '/system/tenant/index',
  '/system/client/index',
  '/system/datascope/index',
  '/system/apiscope/index',
  '/dict-horizontal/index',
];

const tab = (page: Page, path: string) => page.locator(`[data-tab="${path}"]`);

/** Whether `inner` lies wholly inside `outer` horizontally (a tag inside the scrolled tags bar). */
async function inView(inner: Locator, outer: Locator) {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  return !!a && !!b && a.x >= b.x - 1 && a.x + a.width <= b.x + b.width + 1;
}

/** Opens each path inside the running console and waits for its tag. */
async function openTabs(page: Page, paths: string[]) {
  // A tag is labelled from the user's menus: wait until they are there.
  await expect(page.getByTestId('sidebar')).toContainText('系统管理');
  for (const path of paths) {
    await spaGo(page, path);
    await expect(page.getByTestId('tags-bar').locator(`[data-tag="${path}"]`)).toHaveCount(1);
  }
}

/** Visible elements reaching past the viewport's sides, except inside a table's own scroller and the tags bar. */
function overflowing(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      // nprogress slides its bar in from the left while a page loads.
      if (el.closest('.ant-table-content, .ant-table-body, .ant-table-header, .atrium-tags, #nprogress')) continue;
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (!r.width || !r.height || style.visibility === 'hidden' || style.opacity === '0') continue;
      if (r.right > width + 1 || r.left < -1)
        out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.left)}–${Math.round(r.right)}`);
    }
    return { width, scrollWidth: document.documentElement.scrollWidth, out };
  });
}

test('a tab switched back to shows its previous state at once: filters kept, no reload', async ({ page }) => {
  await login(page);
  const lists: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/blade-user/page')) lists.push(r.url());
  });
  const sider = page.getByTestId('sidebar');
  await openSidebar(page, '系统管理', '用户管理', /\/system\/user\/index/);
  const users = tab(page, '/system/user/index');
  // The list has loaded (whoever is on its first page: other journeys add users before this one).
  await expect(users.locator('tr.ant-table-row').first()).toBeVisible();
  // The search input (the sortable column's header carries the same label).
  const account = users.getByRole('textbox', { name: /登录账号/ });
  await account.fill('admin');
  await users.getByRole('button', { name: /搜\s*索/ }).click();
  await expect.poll(() => lists.filter((u) => u.includes('account=admin')).length).toBe(1);

  await sider.getByText('机构管理').click();
  await expect(tab(page, '/system/dept/index').getByTestId('crud-page')).toBeVisible();
  // The hidden tab is still the user screen, not a second copy of the current one.
  await expect(users).toBeHidden();
  expect(await users.textContent()).toContain('用户管理');
  expect(await users.textContent()).not.toContain('机构名称');

  const before = lists.length;
  const started = Date.now();
  await page.getByTestId('tags-bar').locator('[data-tag="/system/user/index"]').click();
  await expect(account).toBeVisible();
  await expect(account).toHaveValue('admin');
  // The list has loaded (whoever is on its first page: other journeys add users before this one).
  await expect(users.locator('tr.ant-table-row').first()).toBeVisible();
  const shownAfter = Date.now() - started;
  await expect(users.locator('.ant-spin-spinning')).toHaveCount(0);
  // Give a refetch every chance to start: none may.
  await page.waitForTimeout(1000);
  expect(lists.length).toBe(before);
  test.info().annotations.push({ type: 'shown again after', description: `${shownAfter} ms` });
  await page.screenshot({ path: test.info().outputPath('1366-users.png') });
});

test('element ids stay unique across kept tabs, so labels point at the visible inputs', async ({ page }) => {
  await login(page);
  // Two screens whose search forms share field names (名称, 编号), and the two tabs of the profile.
  await openTabs(page, ['/system/menu/index', '/system/topmenu/index', '/info/index', '/info/index?tab=password']);
  await expect(tab(page, '/system/menu/index').getByTestId('crud-page')).toBeAttached();
  const top = tab(page, '/system/topmenu/index');
  await expect(top.getByTestId('crud-page')).toBeAttached();
  await expect(tab(page, '/info/index?tab=password').getByLabel('原密码')).toBeVisible();
  const duplicated = await page.evaluate(() => {
    const count = new Map<string, number>();
    for (const el of Array.from(document.querySelectorAll('[id]'))) count.set(el.id, (count.get(el.id) ?? 0) + 1);
    return [...count].filter(([, n]) => n > 1).map(([id]) => id);
  });
  expect(duplicated).toEqual([]);
  const scopes = await page
    .locator('[data-tab]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-tab-scope')));
  expect(new Set(scopes).size).toBe(scopes.length);
  // A label of the visible tab focuses that tab's input.
  await spaGo(page, '/system/topmenu/index');
  const label = top.locator('form label').first();
  await label.click();
  const focusedTab = await page.evaluate(() => document.activeElement?.closest('[data-tab]')?.getAttribute('data-tab'));
  expect(focusedTab).toBe('/system/topmenu/index');
});

test('after a reload on a deep link the sidebar highlights the page and opens its submenu', async ({ page }) => {
  await login(page);
  await page.goto('/system/dept/index');
  const selected = page.getByTestId('sidebar').locator('.ant-menu-item-selected');
  await expect(selected).toHaveText('机构管理');
  await expect(selected).toBeVisible();
  await page.reload();
  await expect(selected).toHaveText('机构管理');
  await expect(selected).toBeVisible();
  await expect(page.getByTestId('sidebar').locator('.ant-menu-submenu-open')).toContainText('系统管理');
});

test('with 12 open tags the active tag is brought into view and the bar scrolls', async ({ page }) => {
  await login(page);
  await openTabs(page, TWELVE);
  const bar = page.getByTestId('tags-bar');
  const scroller = bar.locator('.atrium-tags');
  await expect(bar.locator('[data-tag]')).toHaveCount(13);
  const active = bar.locator('.atrium-tag.active');
  await expect(active).toHaveAttribute('data-tag', TWELVE[11]);
  expect(await scroller.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
  await expect.poll(() => inView(active, scroller)).toBe(true);

  // The arrows scroll back to the first tags; picking one keeps it in view.
  const home = bar.locator('[data-tag="/wel/index"]');
  expect(await inView(home, scroller)).toBe(false);
  const left = bar.getByTestId('tags-left');
  for (let i = 0; i < 10 && !(await inView(home, scroller)); i++) {
    await left.click();
    await page.waitForTimeout(400);
  }
  await expect.poll(() => inView(home, scroller)).toBe(true);
  await expect(left).toBeDisabled();
  // The wheel scrolls it sideways.
  await scroller.hover();
  await page.mouse.wheel(0, 600);
  await expect.poll(() => scroller.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);

  // After a reload (tags kept) the active tag is in view again.
  await page.reload();
  await expect(active).toHaveAttribute('data-tag', TWELVE[11]);
  await expect.poll(() => inView(active, scroller)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('1366-twelve-tags.png') });
});

test('/lock needs no login: without a session it offers the way to log in', async ({ page }) => {
  await page.goto('/lock');
  await expect(page).toHaveURL(/\/lock$/);
  await expect(page.getByTestId('lock-no-session')).toContainText('请登录后继续');
  await page.getByRole('button', { name: '前往登录' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: /登\s*录/ })).toBeVisible();
});

test('Back right after logging out lands on the login page, never on an empty one', async ({ page }) => {
  await login(page);
  await openSidebar(page, '系统管理', '用户管理', /\/system\/user\/index/);
  await expect(tab(page, '/system/user/index').getByTestId('crud-page')).toBeVisible();
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: /退出/ }).click();
  // A click landing while the confirm is still zooming in can be lost; what matters here is what follows.
  const ok = page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ });
  await expect(async () => {
    if (await ok.isVisible()) await ok.click();
    await expect(page).toHaveURL(/\/login/, { timeout: 2000 });
  }).toPass();
  await page.goBack();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: /登\s*录/ })).toBeVisible();
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
});

test('English: the grant dialog names menus as the sidebar does', async ({ page }) => {
  await login(page);
  await page.getByTestId('lang-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByTestId('sidebar')).toContainText('System');
  await spaGo(page, '/system/role/index');
  const roles = tab(page, '/system/role/index');
  await roles.locator('tr', { hasText: 'administrator' }).getByRole('button', { name: 'Grant' }).click();
  const tree = page.getByTestId('grant-menu');
  await expect(tree.locator('.ant-tree-title', { hasText: /^System$/ })).toBeVisible();
  await expect(tree.locator('.ant-tree-title', { hasText: /^Users$/ })).toBeVisible();
  await expect(tree).not.toContainText('系统管理');
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the console is usable: drawer sidebar, one-line user name, nothing wider than the screen', async ({ page }) => {
    await login(page);
    const sider = page.getByTestId('sidebar');
    // The drawer starts closed and leaves the content alone.
    await expect(sider).toBeHidden();
    await expect(page.getByTestId('shade')).toHaveCount(0);
    await expect(page.getByText('你好')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('390-home.png') });
    const name = page.locator('.atrium-user-name');
    await expect(name).toBeVisible();
    expect((await name.boundingBox())!.height).toBeLessThan(30);
    expect(await name.evaluate((e) => getComputedStyle(e).whiteSpace)).toBe('nowrap');
    expect(await overflowing(page)).toMatchObject({ out: [], scrollWidth: 390 });

    // Opened from the menu button, it closes once a menu is picked.
    await page.getByTestId('menu-toggle').click();
    await expect(sider).toBeVisible();
    await expect(page.getByTestId('shade')).toBeVisible();
    await expect.poll(async () => (await sider.boundingBox())?.x).toBe(0);
    await page.screenshot({ path: test.info().outputPath('390-drawer.png') });
    await openSidebar(page, '系统管理', '用户管理', /\/system\/user\/index/);
    await expect(sider).toBeHidden();
    await expect(page.getByTestId('shade')).toHaveCount(0);

    // The user screen stacks the department tree above the table; the table scrolls inside its card.
    const users = tab(page, '/system/user/index');
    await expect(users.locator('tr.ant-table-row').first()).toBeVisible();
    const tree = (await users.getByTestId('dept-tree').boundingBox())!;
    const crud = (await users.getByTestId('crud-page').boundingBox())!;
    expect(tree.y + tree.height).toBeLessThanOrEqual(crud.y);
    expect(crud.x + crud.width).toBeLessThanOrEqual(390);
    expect(await overflowing(page)).toMatchObject({ out: [], scrollWidth: 390 });
    await expect(name).toBeVisible();
    expect((await name.boundingBox())!.height).toBeLessThan(30);
    await page.screenshot({ path: test.info().outputPath('390-users.png') });

    // The secondary top-bar widgets sit behind "more" and still work; the bell stays in the bar (its dot must show).
    await expect(page.getByTestId('lang-switch')).toHaveCount(0);
    await expect(page.getByTestId('notice')).toBeVisible();
    // Its panel opens inside the screen, not past its left edge.
    await page.getByTestId('notice').click();
    const panel = (await page.getByTestId('bell-panel').boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width).toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('bell-panel')).toHaveCount(0);
    await page.getByTestId('header-more').click();
    await page.getByTestId('lang-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByTestId('tags-bar')).toContainText('Home');
    await page.screenshot({ path: test.info().outputPath('390-english.png') });
  });
});
