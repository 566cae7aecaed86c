import { expect, test } from './fixtures.ts';
import { clickUntil, login, openScreen } from './helpers.ts';

test('posts on the CRUD page: add, search, edit, multi-delete', async ({ page }) => {
  await login(page);
  await openScreen(page, '系统管理', '岗位管理');
  const crud = page.getByTestId('crud-page');
  await expect(crud.getByText('ceo')).toBeVisible();

  // Add, with the required-field message first.
  await crud.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /提\s*交/ }).click();
  await expect(dialog.getByText('请输入岗位编号')).toBeVisible();
  await dialog.locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('基层').click();
  await dialog.getByLabel('岗位编号').fill('e2e-01');
  await dialog.getByLabel('岗位名称').fill('巡检员');
  await dialog.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('新增成功')).toBeVisible();
  await expect(crud.getByText('巡检员')).toBeVisible();

  // A duplicate code: the server's message lands on its field.
  await crud.getByRole('button', { name: /新\s*增/ }).click();
  await dialog.locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('基层').click();
  await dialog.getByLabel('岗位编号').fill('e2e-01');
  await dialog.getByLabel('岗位名称').fill('重复');
  await dialog.getByRole('button', { name: /提\s*交/ }).click();
  await expect(dialog.locator('.ant-form-item-explain-error').getByText('岗位编号已存在')).toBeVisible();
  await dialog.getByRole('button', { name: /取\s*消/ }).click();

  // Search, then edit.
  await crud.getByLabel('岗位名称').fill('巡检');
  await crud.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(crud.locator('tbody tr.ant-table-row')).toHaveCount(1);
  await crud
    .locator('tbody tr.ant-table-row')
    .getByRole('button', { name: /编\s*辑/ })
    .click();
  await expect(dialog.getByLabel('岗位名称')).toHaveValue('巡检员');
  await dialog.getByLabel('岗位名称').fill('高级巡检员');
  await dialog.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('更新成功')).toBeVisible();
  await expect(crud.getByText('高级巡检员')).toBeVisible();

  // Multi-delete: nothing selected is refused; then select and confirm.
  await crud
    .getByRole('button', { name: /删\s*除/ })
    .first()
    .click();
  await expect(page.getByText('请选择至少一条数据')).toBeVisible();
  await crud.locator('tbody tr.ant-table-row').first().locator('input[type="checkbox"]').check();
  await crud
    .getByRole('button', { name: /删\s*除/ })
    .first()
    .click();
  await expect(page.locator('.ant-modal-confirm-title').getByText('确定将选择数据删除?')).toBeVisible();
  // Clicked again while the confirmation is still there: a click landing while it opens is lost on a loaded host
  // (seen through the cluster in CI: the dialog stayed, no remove was sent).
  await clickUntil(page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }), async () => {
    await expect(page.getByText('删除成功')).toBeVisible({ timeout: 3_000 });
  });
  await expect(crud.getByText('高级巡检员')).toHaveCount(0);
  // Nothing went wrong in the client along the way.
  const logged = await page.evaluate(() => localStorage.getItem('atrium-logs'));
  expect(JSON.parse(logged ?? '{"content":[]}').content).toEqual([]);
});

test.describe('in a browser west of the server (New York vs Asia/Shanghai)', () => {
  test.use({ timezoneId: 'America/New_York' });
  test('a calendar day round-trips (user birthday)', async ({ page }) => {
    await login(page);
    await openScreen(page, '系统管理', '用户管理');
    const crud = page.locator('[data-testid="crud-page"]:visible').first();
    await crud.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.ant-modal:visible').last();
    await dialog.getByLabel('登录账号').fill('bday');
    await dialog.getByLabel('密码').fill('Bday#2026xx');
    await dialog.getByLabel('用户姓名').fill('生日');
    await dialog.getByLabel('生日').click();
    await dialog.getByLabel('生日').fill('1990-05-04');
    await page.keyboard.press('Enter');
    const submitted = page.waitForRequest((r) => r.url().includes('/api/blade-user/submit') && r.method() === 'POST');
    await dialog.getByRole('button', { name: /提\s*交/ }).click();
    await expect(page.getByText('新增成功')).toBeVisible();
    // The day travels as the day (docs/resources.md "Kinds and columns"), not as the browser's midnight.
    expect((await submitted).postDataJSON().birthday).toBe('1990-05-04');
    await crud
      .locator('tr', { hasText: 'bday' })
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await expect(page.locator('.ant-modal:visible').last().getByLabel('生日')).toHaveValue('1990-05-04');
  });
});
