import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { adminToken, login, openSidebar, spaGo } from './helpers.ts';
import { videoMonitorTexts } from '../../apps/web/src/features/video/monitor/messages.ts';

/**
 * Details a new user noticed (issue 25 §7): the shell, the lock screen, record views, empty states, the camera dialog
 * and the phone width. `ATRIUM_SHOTS=<dir>` also saves screenshots of each screen at 1440 and 390 px in zh and en.
 */

const SHOTS = process.env.ATRIUM_SHOTS;

/** Chooses the console's language before the page loads (the language switch's stored entry). */
async function useLanguage(page: Page, lang: 'zh' | 'en') {
  await page.addInitScript((l) => {
    localStorage.setItem(
      'atrium-language',
      JSON.stringify({ dataType: 'string', content: l, type: false, datetime: Date.now() }),
    );
  }, lang);
}

/** Queues one SMS as the platform administrator, so the outbox has a message to read. */
async function queueSms(page: Page, phone: string, code: string) {
  const token = await adminToken(page.request);
  const res = await page.request.post('/api/blade-resource/sms/endpoint/send-message', {
    headers: { 'Blade-Auth': `bearer ${token}`, 'Tenant-Id': '000000' },
    data: { phones: phone, params: { code } },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

const visible = (page: Page) => page.locator('[data-testid="crud-page"]:visible');

test.describe('screenshots', () => {
  test.skip(!SHOTS, 'ATRIUM_SHOTS names the folder for the screenshots');
  for (const lang of ['zh', 'en'] as const)
    for (const width of [1440, 390])
      test(`${lang} at ${width} px`, async ({ page }) => {
        test.setTimeout(240_000);
        const shot = async (name: string) => {
          await page.waitForTimeout(800);
          await page.screenshot({ path: path.join(SHOTS!, `${name}-${lang}-${width}.png`), fullPage: true });
        };
        fs.mkdirSync(SHOTS!, { recursive: true });
        await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
        await useLanguage(page, lang);
        await page.goto('/login');
        await shot('login');
        await login(page);
        await shot('home');
        await queueSms(page, '13900001111', '123456');
        for (const [name, url] of [
          ['outbox', '/resource/outbox/index'],
          ['camera', '/device/cameradevice/index'],
          ['configregion', '/system/sysconfigregion/index'],
          ['online', '/video/device_online/index'],
          ['monitor', '/video/video_monitor/index'],
          ['blacklist', '/blacklist/blackinfo/index'],
        ] as const) {
          await spaGo(page, url);
          await shot(name);
          if (name === 'outbox') {
            await visible(page)
              .getByRole('button', { name: /查\s*看|View/ })
              .first()
              .click();
            await shot('outbox-view');
            await page.keyboard.press('Escape');
          }
          if (name === 'camera') {
            await visible(page)
              .getByRole('button', { name: /新\s*增|Add/ })
              .first()
              .click();
            await shot('camera-add');
            await page.keyboard.press('Escape');
          }
        }
      });
});

/** The right edge of a locator's box. */
const rightOf = async (l: ReturnType<Page['locator']>) => {
  const b = (await l.boundingBox())!;
  return b.x + b.width;
};

test('the top menu that owns the open screen is the one highlighted', async ({ page }) => {
  await login(page);
  const top = page.getByTestId('top-menu');
  await expect(top.locator('.ant-menu-item-selected')).toContainText('首页');
  await openSidebar(page, '系统管理', '岗位管理', /\/system\/post\/index/);
  await expect(top.locator('.ant-menu-item-selected')).toHaveText('系统');
  await spaGo(page, '/device/cameradevice/index');
  await expect(top.locator('.ant-menu-item-selected')).toHaveText('业务');
  // The sidebar still holds every menu (home's): only the highlight follows the screen.
  await expect(page.getByTestId('sidebar').getByText('系统管理', { exact: true })).toBeVisible();
});

test('unlocking returns to the locked screen; after logging out Back never reaches /lock', async ({ page }) => {
  await login(page);
  await openSidebar(page, '系统管理', '岗位管理', /\/system\/post\/index/);
  await page.getByTestId('lock').click();
  const set = page.locator('.ant-modal:visible');
  await set.locator('input[type="password"]').fill('Lock#123');
  await set.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/lock$/);
  await page.locator('input[type="password"]').fill('Lock#123');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/system\/post\/index$/);

  await page.locator('.atrium-header').getByText('管理员').last().click();
  await page.getByText('退出系统', { exact: true }).click();
  await page
    .locator('.ant-modal-confirm:visible')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page).toHaveURL(/\/login/);
  for (let i = 0; i < 3; i++) {
    await page.goBack().catch(() => undefined);
    await page.waitForTimeout(500);
    await expect(page).not.toHaveURL(/\/lock/);
    await expect(page.getByTestId('lock-no-session')).toHaveCount(0);
  }
});

test('an outbox message is read, copied and closed: no greyed box, one button', async ({ page }) => {
  await queueSms(page, '13900002222', '987654');
  await login(page);
  await spaGo(page, '/resource/outbox/index');
  const row = visible(page).locator('tr', { hasText: '13900002222' });
  await row.getByRole('button', { name: /查\s*看/ }).click();
  const dialog = page.locator('.ant-modal:visible');
  const text = dialog.getByTestId('read-text').filter({ hasText: '987654' });
  await expect(text).toBeVisible();
  await expect(dialog.locator('textarea')).toHaveCount(0);
  await expect(text.locator('.ant-typography-copy')).toBeVisible();
  const buttons = dialog.locator('.ant-modal-footer button');
  await expect(buttons).toHaveCount(1);
  await expect(buttons).toHaveText(/关\s*闭/);
  await buttons.click();
  await expect(dialog).toBeHidden();
});

test('one empty-state picture on a page', async ({ page }) => {
  await login(page);
  // A list searched for a name nobody has: its table is empty, whatever the other specs left behind.
  await spaGo(page, '/system/post/index');
  const search = visible(page).locator('form').first();
  await search.getByLabel('岗位名称').fill('zz-no-such-post');
  await search.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(page.locator('.ant-empty:visible').first()).toBeVisible();
  const kinds = await page
    .locator('.ant-empty:visible')
    .evaluateAll((els) => [...new Set(els.map((e) => e.classList.contains('ant-empty-normal')))]);
  expect(kinds).toEqual([true]);
});

test('the camera dialog is in sections, two columns at desktop width, one on a phone', async ({ page }) => {
  await login(page);
  await spaGo(page, '/device/cameradevice/index');
  await visible(page)
    .getByRole('button', { name: /新\s*增/ })
    .click();
  const dialog = page.locator('.ant-modal:visible');
  await expect(dialog.locator('.atrium-dialog-section-title')).toHaveText([
    '设备信息',
    '位置与归属',
    '接入',
    '视频与配置',
  ]);
  const top = async (label: string) => (await dialog.getByLabel(label, { exact: true }).boundingBox())!.y;
  // Measured once the dialog's opening animation (a zoom) has settled: polled until the layout holds.
  await expect.poll(async () => (await top('设备名称')) - (await top('设备编码'))).toBe(0);
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 390, height: 844 });
  await visible(page)
    .getByRole('button', { name: /新\s*增/ })
    .click();
  await expect.poll(async () => (await top('设备名称')) - (await top('设备编码'))).toBeGreaterThan(0);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the login card keeps a margin on both sides', async ({ page }) => {
    await page.goto('/login');
    const card = (await page.locator('.atrium-login-card').boundingBox())!;
    expect(card.x).toBeGreaterThanOrEqual(12);
    expect(card.x + card.width).toBeLessThanOrEqual(390 - 12);
  });

  test('lists stay inside their card: an empty table, the creation-time filter', async ({ page }) => {
    await login(page);
    await spaGo(page, '/system/sysconfigregion/index');
    const card = visible(page);
    await expect(card.locator('.ant-empty')).toBeVisible();
    const edge = await rightOf(card);
    await expect(card.locator('.ant-picker-range')).toBeVisible();
    expect(await rightOf(card.locator('.ant-picker-range'))).toBeLessThanOrEqual(edge);
    for (const head of await card.locator('thead:visible').all()) expect(await rightOf(head)).toBeLessThanOrEqual(edge);
  });

  test('online statistics: a region name on one line', async ({ page }) => {
    await login(page);
    await spaGo(page, '/video/device_online/index');
    const cell = page.locator('.ant-table-tbody td a', { hasText: '内蒙古自治区' });
    await expect(cell).toBeVisible();
    const lineHeight = await cell.evaluate((e) => parseFloat(getComputedStyle(e).lineHeight) || 22);
    expect((await cell.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
  });

  test('live monitoring: an empty cell points to the list above', async ({ page }) => {
    await login(page);
    await spaGo(page, '/video/video_monitor/index');
    await expect(page.getByTestId('cell-0')).toHaveText(videoMonitorTexts.zh.emptyCellBelow);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(page.getByTestId('cell-0')).toHaveText(videoMonitorTexts.zh.emptyCell);
  });
});
