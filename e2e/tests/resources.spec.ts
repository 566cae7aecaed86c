import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { dialog, login, openScreen, visibleCrud } from './helpers.ts';

/**
 * Screens drawn from resource definitions (docs/web.md "Resource screens"): the posts screen's record dialog never
 * carries another row's values, and the blacklist screen exists with nothing but its definition.
 */

type Post = { id: string; version: number; category: number; postCode: string; postName: string; sort: number };

test('posts: edit A, cancel, edit B submits B under B’s id; 新增 then starts empty', async ({ page }) => {
  await login(page);
  const listed = page.waitForResponse((r) => r.url().includes('/api/blade-system/post/list'));
  await openScreen(page, '系统管理', '岗位管理');
  const records = ((await (await listed).json()) as { data: { records: Post[] } }).data.records;
  const a = records.find((r) => r.postCode === 'ceo')!;
  const b = records.find((r) => r.postCode === 'manager')!;
  const crud = visibleCrud(page);
  const row = (code: string) => crud.locator('tbody tr', { has: page.getByText(code, { exact: true }) });

  await row(a.postCode)
    .getByRole('button', { name: /编\s*辑/ })
    .click();
  await expect(dialog(page).getByLabel('岗位编号')).toHaveValue(a.postCode);
  await dialog(page).getByLabel('岗位名称').fill('typed into A, then cancelled');
  await dialog(page)
    .getByRole('button', { name: /取\s*消/ })
    .click();
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);

  await row(b.postCode)
    .getByRole('button', { name: /编\s*辑/ })
    .click();
  await expect(dialog(page).getByLabel('岗位编号')).toHaveValue(b.postCode);
  await expect(dialog(page).getByLabel('岗位名称')).toHaveValue(b.postName);
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/blade-system/post/submit'));
  await dialog(page)
    .getByRole('button', { name: /提\s*交/ })
    .click();
  const body = (await sent).postDataJSON() as Record<string, unknown>;
  expect(body).toMatchObject({
    id: b.id,
    version: b.version,
    category: b.category,
    postCode: b.postCode,
    postName: b.postName,
    sort: b.sort,
  });
  await expect(page.getByText('更新成功')).toBeVisible();
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);

  await crud.getByRole('button', { name: /新\s*增/ }).click();
  await expect(dialog(page).getByText('新增', { exact: true })).toBeVisible();
  await expect(dialog(page).getByLabel('岗位编号')).toHaveValue('');
  await expect(dialog(page).getByLabel('岗位名称')).toHaveValue('');
  await expect(dialog(page).locator('.ant-select-selection-item')).toHaveCount(0);
});

async function openBlacklist(page: Page) {
  await page.getByTestId('top-menu').getByText('业务', { exact: true }).click();
  await openScreen(page, '黑名单', '黑名单信息');
}

test('blacklist from its definition alone: add a phone, find it by type, delete it', async ({ page }) => {
  await login(page);
  await openBlacklist(page);
  const crud = visibleCrud(page);

  await crud.getByRole('button', { name: /新\s*增/ }).click();
  // The form is drawn (its fields visible) before it is submitted empty.
  await expect(dialog(page).getByLabel('值', { exact: true })).toBeVisible();
  await dialog(page)
    .getByRole('button', { name: /提\s*交/ })
    .click();
  await expect(dialog(page).getByText('请选择类型')).toBeVisible();
  await expect(dialog(page).getByText('请输入值')).toBeVisible();
  await dialog(page).getByLabel('类型').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('手机号').click();
  await dialog(page).getByLabel('值', { exact: true }).fill('13800000000');
  await dialog(page).getByLabel('原因').fill('e2e');
  await expect(dialog(page).locator('.ant-form-item-explain-error')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('blackinfo-dialog-zh.png') });
  await dialog(page)
    .getByRole('button', { name: /提\s*交/ })
    .click();
  await expect(page.getByText('新增成功')).toBeVisible();
  const entry = crud.locator('tbody tr', { hasText: '13800000000' });
  await expect(entry).toContainText('手机号');
  await expect(entry).toContainText('启用');
  await page.screenshot({ path: test.info().outputPath('blackinfo-zh.png'), fullPage: true });

  // By type: another type hides it, its own type shows it (sent as the `in` list).
  const search = crud.locator('form').first();
  const byType = async (label: string) => {
    await search.getByLabel('类型').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(label).click();
    await page.keyboard.press('Escape');
    const listed = page.waitForRequest((r) => r.url().includes('/api/blade-business/blackinfo/list'));
    await search.getByRole('button', { name: /搜\s*索/ }).click();
    return new URL((await listed).url()).searchParams;
  };
  expect((await byType('邮箱域名')).get('type')).toBe('4');
  await expect(entry).toHaveCount(0);
  await search.getByRole('button', { name: /重\s*置/ }).click();
  expect((await byType('手机号')).get('type')).toBe('1');
  await expect(entry).toHaveCount(1);

  await entry.getByRole('button', { name: /删\s*除/ }).click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(entry).toHaveCount(0);
  const logged = await page.evaluate(() => localStorage.getItem('atrium-logs'));
  expect(JSON.parse(logged ?? '{"content":[]}').content).toEqual([]);
});

test('the blacklist screen in English', async ({ page }) => {
  await login(page);
  await openBlacklist(page);
  await page.getByTestId('lang-switch').click();
  await page.getByText('English', { exact: true }).click();
  const crud = visibleCrud(page);
  await expect(crud).toContainText('Blacklist entries');
  const headers = crud.locator('thead th');
  for (const title of ['Type', 'Value', 'Reason', 'Expires', 'Status', 'Actions'])
    await expect(headers.filter({ hasText: new RegExp(`^${title}$`) })).toHaveCount(1);
  await expect(crud.getByRole('button', { name: /\bAdd$/ })).toBeVisible();
  await expect(crud.locator('form').first().getByText('Type', { exact: true })).toBeVisible();

  // The same dialog and messages in English; an entry added here is listed with its English labels.
  await crud.getByRole('button', { name: /\bAdd$/ }).click();
  await dialog(page)
    .getByRole('button', { name: /Submit/ })
    .click();
  await expect(dialog(page).getByText('Select the type')).toBeVisible();
  await expect(dialog(page).getByText('Enter the value')).toBeVisible();
  await expect(dialog(page).getByPlaceholder('Empty: never')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('blackinfo-dialog-en.png') });
  await dialog(page).getByLabel('Type').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('Phone').click();
  await dialog(page).getByLabel('Value', { exact: true }).fill('13900000000');
  await dialog(page)
    .getByRole('button', { name: /Submit/ })
    .click();
  await expect(page.getByText('Added')).toBeVisible();
  const entry = crud.locator('tbody tr', { hasText: '13900000000' });
  await expect(entry).toContainText('Phone');
  await expect(entry).toContainText('Active');
  await page.screenshot({ path: test.info().outputPath('blackinfo-en.png'), fullPage: true });
  await entry.getByRole('button', { name: /Delete/ }).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: /OK/ }).click();
  await expect(page.getByText('Deleted')).toBeVisible();
  await expect(entry).toHaveCount(0);
});
