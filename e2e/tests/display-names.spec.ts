import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { login, spaGo } from './helpers';

/**
 * Names, not codes, on the list screens (docs/web.md "Field types", docs/devices.md "Dictionary names"): a camera's
 * region, device type and manufacturer, a client's region; and the online pie when one slice is 100 %. Screenshots
 * of each go to the test's output folder (1366 px, and 390 px for the pie).
 */
const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const STAMP = String(Date.now()).slice(-6);

/** Posts a body to the API as the signed-in user (the token the console keeps); answers the status. */
async function apiPost(page: Page, url: string, body: object): Promise<number> {
  return page.evaluate(
    async ({ url, body, basic }) => {
      const token = JSON.parse(localStorage.getItem('atrium-token') ?? '{}').content as string;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'blade-auth': `bearer ${token}`, authorization: basic },
        body: JSON.stringify(body),
      });
      return res.status;
    },
    { url, body, basic: BASIC },
  );
}

/** The visible list row holding `text` (kept-alive tabs stay in the DOM). */
const rowWith = (page: Page, text: string) =>
  page.locator('.ant-table-row', { hasText: text }).filter({ visible: true });

test('lists show region, device type and manufacturer names; the pie keeps clear of its legend', async ({ page }) => {
  await login(page);
  const camera = `names cam ${STAMP}`;
  const clientName = `names client ${STAMP}`;
  expect(
    await apiPost(page, '/api/blade-device-access/cameraDevice/save', {
      deviceCode: `110105000013109${STAMP.slice(-5)}`,
      name: camera,
      deviceType: '131',
      manufacturer: 'hikvision',
      regionCode: '110105',
      protocol: 'RTSP',
    }),
  ).toBe(200);
  expect(
    await apiPost(page, '/api/blade-business/clientInfo/submit', {
      clientName,
      clientType: 1,
      creditCode: '91110108MA01ABCD0B',
      contactName: 'contact',
      operatorTel: `139${STAMP}00`.slice(0, 11),
      regionCode: '110101',
    }),
  ).toBe(200);

  await spaGo(page, '/device/cameradevice/index');
  const cam = rowWith(page, camera);
  await expect(cam).toContainText('朝阳区');
  await expect(cam).toContainText('摄像机');
  await expect(cam).toContainText('海康威视');
  await expect(cam.getByText('110105', { exact: true })).toHaveCount(0);
  await expect(cam.getByText('131', { exact: true })).toHaveCount(0);
  await expect(cam.getByText('hikvision', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('1366-cameras-zh.png') });

  await spaGo(page, '/customer/clientinfo/index');
  const client = rowWith(page, clientName);
  await expect(client).toContainText('东城区');
  await expect(client.getByText('110101', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('1366-clients-zh.png') });

  // The home dashboard's rankings are plain bars (no chart, so no ECharts chunk on the home page).
  await spaGo(page, '/wel/index');
  const ranking = page.locator('.atrium-topbars').filter({ visible: true }).first();
  await expect(ranking.locator('li', { hasText: '朝阳区' })).toBeVisible();
  await expect(page.locator('canvas').filter({ visible: true })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('1366-home-zh.png'), fullPage: true });

  await spaGo(page, '/video/device_online/index');
  await expect(page.locator('canvas').filter({ visible: true }).first()).toBeVisible();
  await page.waitForTimeout(1200); // the pie's entry animation
  await page.screenshot({ path: test.info().outputPath('1366-online-zh.png') });

  // English: the dictionary's English names; the regions' national names (the table holds no other).
  await page.evaluate(() =>
    localStorage.setItem(
      'atrium-language',
      JSON.stringify({ dataType: 'string', content: 'en', type: false, datetime: Date.now() }),
    ),
  );
  await page.goto('/device/cameradevice/index');
  const camEn = rowWith(page, camera);
  await expect(camEn).toContainText('Camera');
  await expect(camEn).toContainText('Hikvision');
  await expect(camEn).toContainText('朝阳区');
  await expect(camEn.getByText('131', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('1366-cameras-en.png') });

  await page.setViewportSize({ width: 390, height: 844 });
  // A phone: three filters stand open, the rest fold behind "More filters"; the first rows show on the first screen.
  await page.goto('/device/cameradevice/index');
  const search = page.locator('.ant-form').filter({ visible: true }).first();
  await expect(search.getByRole('button', { name: /More filters/ })).toBeVisible();
  await expect(search.locator('.ant-form-item').filter({ visible: true })).toHaveCount(3);
  const firstRow = rowWith(page, camera);
  await expect(firstRow).toBeVisible();
  expect((await firstRow.boundingBox())!.y).toBeLessThan(844);
  // The row's own columns are not covered: the actions column is not fixed on a phone, and the code shows in full.
  await expect(firstRow.locator('td.ant-table-cell-fix-right')).toHaveCount(0);
  const code = firstRow.getByText(/^110105000013109/);
  const box = (await code.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('390-cameras-en.png') });
  await search.getByRole('button', { name: /More filters/ }).click();
  await expect(search.getByRole('button', { name: /Fewer filters/ })).toBeVisible();
  expect(await search.locator('.ant-form-item').filter({ visible: true }).count()).toBeGreaterThan(3);
  await page.goto('/video/device_online/index');
  await expect(page.locator('canvas').filter({ visible: true }).first()).toBeVisible();
  await page.locator('canvas').filter({ visible: true }).first().scrollIntoViewIfNeeded();
  await page.waitForTimeout(1200);
  await page.screenshot({ path: test.info().outputPath('390-online-en.png') });
  await page.goto('/customer/clientinfo/index');
  await expect(rowWith(page, clientName)).toContainText('东城区');
  await page.screenshot({ path: test.info().outputPath('390-clients-en.png') });
});
