import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { dialog, login, loginChanging, openScreen, sidebar, visibleCrud } from './helpers.ts';

/**
 * Issue 3's journey: the platform administrator creates a tenant; its administrator (forced to change the one-time
 * password) creates a department, a role with a few menus and buttons, and a user; that user sees exactly those
 * menus and buttons. Along the way: a multi-delete, the dictionary screens, and the same screens in English.
 */
// Each test starts signed out (a fresh browser context); they build on each other's data.
test.describe.configure({ mode: 'serial' });

const submitDialog = (page: Page) =>
  dialog(page)
    .getByRole('button', { name: /提\s*交/ })
    .click();
async function pickTree(page: Page, field: Locator, title: string) {
  const select = field.locator('xpath=ancestor::*[contains(concat(" ", @class, " "), " ant-select ")][1]');
  // Picked again until the field shows it: a pick lost while the dropdown opens on a loaded host left a user without
  // its role (seen through the cluster in CI). A shown pick is never clicked again (that would take it back).
  await expect(async () => {
    if (!((await select.textContent()) ?? '').includes(title)) {
      await field.click();
      await page
        .locator('.ant-select-dropdown:visible .ant-select-tree-title', { hasText: new RegExp(`^${title}$`) })
        .first()
        .click({ timeout: 3_000 });
    }
    await expect(select).toContainText(title, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.keyboard.press('Escape');
}

const tenantId = '800001';
let tenantAdminPassword = '';

test('platform administrator creates a tenant and sees its one-time admin password', async ({ page }) => {
  await login(page);
  await openScreen(page, '系统管理', '租户管理');
  const crud = visibleCrud(page);
  await crud.getByRole('button', { name: /新\s*增/ }).click();
  await dialog(page).getByLabel('租户编号').fill(tenantId);
  await dialog(page).getByLabel('租户名称').fill('东城巡检');
  await submitDialog(page);
  const once = page.getByTestId('shown-once');
  await expect(once).toBeVisible();
  const codes = once.locator('code');
  await expect(once.locator('code', { hasText: /^admin$/ })).toBeVisible();
  tenantAdminPassword = (await codes.last().textContent())!.trim();
  expect(tenantAdminPassword).toMatch(/^[A-Za-z0-9]{12}$/);
  await page.locator('.ant-modal-confirm').getByRole('button').last().click();
  await expect(crud.getByText('东城巡检')).toBeVisible();

  // The system dictionary screen: parent table, child table of the picked parent.
  await openScreen(page, '系统管理', '系统字典');
  const sex = page.locator('tr', { hasText: 'sex' }).first();
  await sex.getByRole('button', { name: '字典配置' }).click();
  await expect(page.getByText('男', { exact: true }).first()).toBeVisible();
});

test("the tenant's administrator builds a department, a role and a user; multi-deletes; keeps a business dictionary", async ({
  page,
}) => {
  await loginChanging(page, tenantId, 'admin', tenantAdminPassword, 'Dongcheng#2026');
  // Platform-only screens are not in the tenant's menu.
  await sidebar(page).getByText('系统管理', { exact: true }).click();
  await expect(sidebar(page).getByText('用户管理', { exact: true })).toBeVisible();
  await expect(sidebar(page).getByText('租户管理', { exact: true })).toHaveCount(0);
  await expect(sidebar(page).getByText('应用管理', { exact: true })).toHaveCount(0);

  // Departments: one to keep, two to multi-delete.
  await openScreen(page, '系统管理', '机构管理');
  const crud = visibleCrud(page);
  for (const name of ['巡检部', '临时一', '临时二']) {
    await crud
      .getByRole('button', { name: /新\s*增/ })
      .first()
      .click();
    await dialog(page).getByLabel('机构名称').fill(name);
    await submitDialog(page);
    await expect(page.getByText('新增成功').last()).toBeVisible();
    await expect(crud.getByText(name, { exact: true })).toBeVisible();
  }
  for (const name of ['临时一', '临时二'])
    await crud.locator('tr', { hasText: name }).locator('input[type="checkbox"]').check();
  await crud
    .getByRole('button', { name: /删\s*除/ })
    .first()
    .click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(page.getByText('删除成功').last()).toBeVisible();
  await expect(crud.getByText('临时一', { exact: true })).toHaveCount(0);
  await expect(crud.getByText('巡检部', { exact: true })).toBeVisible();

  // A role with the posts screen and two of its buttons.
  await openScreen(page, '系统管理', '角色管理');
  await crud
    .getByRole('button', { name: /新\s*增/ })
    .first()
    .click();
  await dialog(page).getByLabel('角色名称').fill('巡检员');
  await dialog(page).getByLabel('角色别名').fill('inspector');
  await submitDialog(page);
  await expect(page.getByText('新增成功').last()).toBeVisible();
  await crud.locator('tr', { hasText: 'inspector' }).getByRole('button', { name: '权限设置' }).click();
  const tree = page.getByTestId('grant-menu');
  const node = (title: string, after?: string) =>
    after
      ? tree.locator(
          `xpath=.//div[contains(@class,"ant-tree-treenode")][.//span[@class="ant-tree-title" and text()="${after}"]]/following-sibling::div[contains(@class,"ant-tree-treenode")][.//span[@class="ant-tree-title" and text()="${title}"]][1]`,
        )
      : tree
          .locator('.ant-tree-treenode', {
            has: page.locator('.ant-tree-title', { hasText: new RegExp(`^${title}$`) }),
          })
          .first();
  await node('新增', '岗位管理').locator('.ant-tree-checkbox').click();
  await node('查看', '岗位管理').locator('.ant-tree-checkbox').click();
  await dialog(page)
    .getByRole('button', { name: /确\s*定|提\s*交|保\s*存/ })
    .click();
  await expect(page.getByText('授权成功').last()).toBeVisible();

  // A user of that department with that role.
  await openScreen(page, '系统管理', '用户管理');
  await crud
    .getByRole('button', { name: /新\s*增/ })
    .first()
    .click();
  const d = dialog(page);
  await d.getByLabel('登录账号').fill('inspector1');
  await d.getByLabel('密码', { exact: true }).fill('Inspect#2026');
  await d.getByLabel('用户姓名').fill('巡检一号');
  await pickTree(page, d.getByLabel('所属部门'), '巡检部');
  await pickTree(page, d.getByLabel('所属角色'), '巡检员');
  await submitDialog(page);
  await expect(page.getByText('新增成功').last()).toBeVisible();
  await expect(crud.getByText('inspector1')).toBeVisible();

  // A business dictionary: parent, then a child whose code comes from the parent.
  await openScreen(page, '系统管理', '业务字典');
  const parents = visibleCrud(page).first();
  await parents
    .getByRole('button', { name: /新\s*增/ })
    .first()
    .click();
  await submitDialog(page);
  await expect(dialog(page).getByText('请输入字典编号')).toBeVisible();
  await dialog(page).getByLabel('字典编号').fill('shift');
  await dialog(page).getByLabel('字典名称').fill('班次');
  await dialog(page).getByLabel('字典排序').fill('1');
  await submitDialog(page);
  await expect(page.getByText('新增成功').last()).toBeVisible();
  await page.locator('tr', { hasText: 'shift' }).first().getByRole('button', { name: '字典配置' }).click();
  const children = visibleCrud(page).last();
  await children
    .getByRole('button', { name: /新\s*增/ })
    .first()
    .click();
  await expect(dialog(page).getByLabel('字典编号')).toHaveValue('shift');
  await expect(dialog(page).getByLabel('字典编号')).toBeDisabled();
  await dialog(page).getByLabel('字典键值').fill('day');
  await dialog(page).getByLabel('字典名称').fill('白班');
  await dialog(page).getByLabel('字典排序').fill('1');
  await submitDialog(page);
  await expect(page.getByText('新增成功').last()).toBeVisible();
  await expect(children.getByText('白班')).toBeVisible();
});

test('the new user sees exactly the granted menus and buttons, in Chinese and in English', async ({ page }) => {
  await loginChanging(page, tenantId, 'inspector1', 'Inspect#2026', 'Inspector#2026');
  await sidebar(page).getByText('系统管理', { exact: true }).click();
  await expect(sidebar(page).getByText('岗位管理', { exact: true })).toBeVisible();
  for (const hidden of ['用户管理', '角色管理', '机构管理', '工作台', '资源管理'])
    await expect(sidebar(page).getByText(hidden, { exact: true })).toHaveCount(0);
  // Top menus that lead to nothing granted are not offered.
  const top = page.getByTestId('top-menu');
  await expect(top.getByText('系统', { exact: true })).toBeVisible();
  for (const hidden of ['工作台', '业务', '流程']) await expect(top.getByText(hidden, { exact: true })).toHaveCount(0);
  await openScreen(page, '系统管理', '岗位管理');
  const crud = visibleCrud(page);
  await expect(crud.getByText('admin', { exact: true })).toBeVisible();
  await expect(crud.getByRole('button', { name: /新\s*增/ })).toBeVisible();
  await expect(crud.getByRole('button', { name: /删\s*除/ })).toHaveCount(0);
  await expect(crud.getByRole('button', { name: /编\s*辑/ })).toHaveCount(0);
  await expect(crud.getByRole('button', { name: /查\s*看/ }).first()).toBeVisible();

  // English: the same screen and menus.
  await page.getByTestId('lang-switch').click();
  await page.getByText('English', { exact: true }).click();
  await expect(sidebar(page).getByText('Posts', { exact: true })).toBeVisible();
  await expect(crud.getByRole('button', { name: /\bAdd$/ })).toBeVisible();
  await expect(crud.getByRole('button', { name: /Delete/ })).toHaveCount(0);
});
