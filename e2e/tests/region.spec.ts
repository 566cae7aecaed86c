import { expect, test } from './fixtures.ts';
import { login, spaGo } from './helpers';

/** Regions (docs/product.md "Regions"): find a region, add a town below it, export its subtree. */
test('the region screen: search, add below, export', async ({ page }) => {
  await login(page);
  await spaGo(page, '/system/region/index');
  const screen = page.getByTestId('region-page').filter({ visible: true });
  await expect(screen).toContainText('浙江省');

  await screen.getByPlaceholder('按名称或编号搜索').fill('西湖');
  await screen.getByPlaceholder('按名称或编号搜索').press('Enter');
  await screen.locator('.ant-list-item', { hasText: '330106' }).click();
  await expect(screen).toContainText('西湖区 (330106)');
  await expect(screen).toContainText('浙江省 / 杭州市 / 西湖区');

  await screen.getByRole('button', { name: /新增下级/ }).click();
  await screen.getByLabel('区划编号').fill('330106');
  await screen.getByLabel('区划名称').fill('演示街道');
  await screen.getByRole('button', { name: /保\s*存/ }).click();
  // The code rule is the server's: a town is its district's code plus three digits.
  await expect(screen.getByText('区划编号应以上级编号 330106 开头，共 9 位数字')).toBeVisible();
  await screen.getByLabel('区划编号').fill('330106901');
  await screen.getByRole('button', { name: /保\s*存/ }).click();
  await expect(screen).toContainText('演示街道 (330106901)');
  await expect(screen.locator('.ant-tree-treenode-selected')).toContainText('演示街道');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    screen.getByRole('button', { name: /导出演示街道/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/330106901\.xlsx$/);
});
