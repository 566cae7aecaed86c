import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { login, spaGo } from './helpers';

const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

/** Saves cameras through the camera API as the signed-in user (the token the console keeps). */
async function saveDevices(page: Page, devices: { deviceCode: string; deviceType: string; regionCode: string }[]) {
  const statuses = await page.evaluate(
    async ({ devices, basic }) => {
      const token = JSON.parse(localStorage.getItem('atrium-token') ?? '{}').content as string;
      const out: number[] = [];
      for (const d of devices) {
        const res = await fetch('/api/blade-device-access/cameraDevice/save', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'blade-auth': `bearer ${token}`, authorization: basic },
          body: JSON.stringify({ ...d, name: `e2e ${d.deviceCode.slice(-4)}`, protocol: 'RTSP' }),
        });
        out.push(res.status);
      }
      return out;
    },
    { devices, basic: BASIC },
  );
  expect(statuses.every((s) => s === 200)).toBe(true);
}

/** Statistics (docs/devices.md "Statistics"): the dashboard, the table by region with drill-down, the rankings. */
test('statistics: home dashboard, online table with drill-down and charts, ranking bars', async ({ page }) => {
  await login(page);
  await saveDevices(page, [
    { deviceCode: '11010100001310900001', deviceType: '131', regionCode: '110101' },
    { deviceCode: '11010100001310900002', deviceType: '131', regionCode: '110101' },
    { deviceCode: '11010500001320900003', deviceType: '132', regionCode: '110105' },
  ]);
  // The home page as a dashboard: totals (fresh load after the devices exist).
  await page.reload();
  await expect(page.getByText('设备总数').first()).toBeVisible();
  await expect(page.getByText('设备接入排名').first()).toBeVisible();

  await spaGo(page, '/video/device_online/index');
  const row = page.locator('.ant-table-row', { hasText: '东城区' }).filter({ visible: true });
  await expect(row).toContainText('2');
  // ECharts draws the pie and the line on canvases (loaded only now).
  await expect(page.locator('canvas').filter({ visible: true }).first()).toBeVisible();
  await row.getByText('东城区').click();
  await expect(page.locator('.ant-breadcrumb').filter({ visible: true })).toContainText('东城区');
  await expect(page.locator('.ant-table-row').filter({ visible: true })).toHaveCount(1);

  await spaGo(page, '/video/device_ranking/index');
  await expect(page.getByText('NVR 通道接入排名').filter({ visible: true })).toBeVisible();
  await expect(page.locator('canvas').filter({ visible: true }).first()).toBeVisible();
});
