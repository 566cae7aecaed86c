import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { website } from '@atrium/contract';
import { cameradevice } from '@atrium/contract/resources/device/cameradevice';
import { REPORT_COLUMNS, REPORT_DATASETS, report_list } from '@atrium/contract/resources/report/report_list';
import { reportViewTexts } from '../../apps/web/src/features/report/messages.ts';
import { expect, test } from './fixtures.ts';
import { login } from './helpers.ts';
import { adminApi, buttonName, LANGS, openMenu, type Lang } from './lang.ts';

/**
 * Reports (docs/reports.md), in Chinese and in English: a definition made in the 报表列表 dialog (dataset, columns,
 * chart), run — its bar chart drawn and its rows shown — and downloaded as xlsx, the file read back with exceljs.
 */

const texts = (lang: Lang) => reportViewTexts[lang];
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
const visibleCrud = (page: Page) => page.locator('[data-testid="crud-page"]:visible');

/** Picks options of a select by their labels (typed, then clicked in the open dropdown). */
async function pick(page: Page, label: string, options: string[]) {
  const select = dialog(page).getByLabel(label, { exact: true });
  for (const option of options) {
    await select.click();
    await select.fill(option);
    await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
  }
  await page.keyboard.press('Escape');
}

for (const lang of LANGS) {
  test(`create a report, view its chart and rows, download the xlsx and read it (${lang})`, async ({
    page,
    request,
  }) => {
    const L = (m: { zh: string; en: string }) => m[lang];
    // Two cameras in 海淀区, one per type, for this language's report.
    const api = await adminApi(request);
    const n = lang === 'zh' ? 1 : 3;
    for (const [i, type] of [
      [n, '131'],
      [n + 1, '132'],
    ] as const)
      await api.post(`${cameradevice.base}/${cameradevice.createPath}`, {
        deviceCode: `1101080000${type}09000${i}0`.slice(0, 20),
        deviceType: type,
        regionCode: '110108',
        name: `report ${lang} ${i}`,
        protocol: 'RTSP',
      });

    await page.addInitScript(
      ([key, value]) => localStorage.setItem(key, JSON.stringify({ content: value })),
      [`${website.keyPrefix}language`, lang],
    );
    await login(page);
    await openMenu(page, lang, 'report', 'report_list');
    const name = `${lang === 'zh' ? '海淀设备' : 'Haidian devices'} ${Date.now().toString(36)}`;
    const crud = visibleCrud(page);
    await crud.getByRole('button', { name: buttonName(lang === 'zh' ? '新增' : 'Add') }).click();
    const d = dialog(page);
    const f = report_list.fields;
    await d.getByLabel(L(f.name.label), { exact: true }).fill(name);
    await pick(page, L(f.dataset.label), [L(REPORT_DATASETS.device_region.label)]);
    await pick(page, L(f.columns.label), [
      L(REPORT_COLUMNS.regionName.label),
      L(REPORT_COLUMNS.deviceType.label),
      L(REPORT_COLUMNS.total.label),
    ]);
    await pick(page, L(f.chart.label), [L(f.chart.options[1].label)]);
    await d.getByRole('button', { name: buttonName(lang === 'zh' ? '提交' : 'Submit') }).click();
    await expect(page.locator('.ant-modal:visible')).toHaveCount(0);

    // Run: the bar chart (ECharts on a canvas) and the rows, in the language of the console.
    const row = crud.locator('tbody tr', { has: page.getByText(name, { exact: true }) });
    await row.getByRole('button', { name: buttonName(texts(lang).open) }).click();
    const drawer = page.locator('.ant-drawer:visible');
    await expect(drawer).toContainText(name);
    await expect(drawer.getByTestId('report-chart').locator('canvas')).toBeVisible();
    const table = drawer.getByTestId('report-table');
    await expect(table.locator('thead')).toContainText(L(REPORT_COLUMNS.deviceType.label));
    const haidian = lang === 'zh' ? '海淀区' : /海淀区|Haidian/;
    await expect(table.locator('tbody tr', { hasText: '132' })).toContainText(haidian);

    // The xlsx, downloaded as the user does, read back.
    const download = page.waitForEvent('download');
    await drawer.getByRole('button', { name: buttonName(texts(lang).xlsx) }).click();
    const file = await (await download).path();
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const rows = book.worksheets[0]
      .getSheetValues()
      .slice(1)
      .map((r) => (r as unknown[]).slice(1));
    expect(rows[0]).toEqual([
      L(REPORT_COLUMNS.regionName.label),
      L(REPORT_COLUMNS.deviceType.label),
      L(REPORT_COLUMNS.total.label),
    ]);
    const mine = rows.filter((r) => String(r[0]).includes('海淀'));
    expect(mine.map((r) => r[1])).toEqual(expect.arrayContaining(['131', '132']));
    expect(mine.every((r) => Number(r[2]) >= 1)).toBe(true);
    await expect(page.getByText(texts(lang).done.replace('{{rows}}', String(rows.length - 1)))).toBeVisible();
  });
}
