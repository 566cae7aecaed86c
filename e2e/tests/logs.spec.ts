import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { login, openSidebar } from './helpers.ts';

/**
 * Logs (docs/web.md "Log screens"): the administrator edits a department and sees the edit in the audit viewer —
 * who, what, and the changed field before → after with its label — in Chinese and in English; the error-log viewer
 * lists what the console uploaded.
 */
test.describe.configure({ mode: 'serial' });

const visibleCrud = (page: Page) => page.locator('[data-testid="crud-page"]:visible');
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
const auditPage = (page: Page) => page.locator('[data-testid="audit-log-page"]:visible');
const stamp = String(Date.now()).slice(-6);
const first = `审计部${stamp}`;
const second = `审计二部${stamp}`;

async function editDept(page: Page) {
  await openSidebar(page, '系统管理', '机构管理', /\/system\/dept/);
  const crud = visibleCrud(page);
  await crud
    .getByRole('button', { name: /新\s*增/ })
    .first()
    .click();
  await dialog(page).getByLabel('机构名称').fill(first);
  await dialog(page)
    .getByRole('button', { name: /提\s*交/ })
    .click();
  await expect(page.getByText('新增成功').last()).toBeVisible();
  const row = crud.locator('tr', { hasText: first });
  await row.getByRole('button', { name: /编\s*辑/ }).click();
  await dialog(page).getByLabel('机构名称').fill(second);
  await dialog(page)
    .getByRole('button', { name: /提\s*交/ })
    .click();
  await expect(crud.locator('tr', { hasText: second })).toBeVisible();
}

test('an edit shows in the audit viewer with its diff, in Chinese and in English', async ({ page }) => {
  await login(page);
  await editDept(page);

  await openSidebar(page, '系统管理', '审计日志', /\/system\/auditlog/);
  const audit = auditPage(page);
  await audit.getByLabel('对象').fill('dept');
  await audit.getByLabel('账号').fill('admin');
  await audit.getByRole('button', { name: /搜\s*索/ }).click();
  const row = audit.locator('tr', { hasText: '修改' }).first();
  await expect(row).toContainText('admin');
  await row.getByRole('button', { name: /查\s*看/ }).click();
  const drawer = page.getByTestId('audit-detail');
  const line = drawer.locator('tr', { hasText: '机构名称' });
  await expect(line).toContainText(first);
  await expect(line).toContainText(second);
  await expect(drawer.getByText('修改前')).toBeVisible();
  await drawer.getByRole('button', { name: /close|关闭/i }).click();

  await page.getByTestId('lang-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(auditPage(page)).toContainText('Audit log');
  const enRow = auditPage(page).locator('tr', { hasText: 'Edit' }).first();
  await enRow.getByRole('button', { name: 'View' }).click();
  const enLine = page.getByTestId('audit-detail').locator('tr', { hasText: 'Department name' });
  await expect(enLine).toContainText(second);
  await expect(page.getByTestId('audit-detail').getByText('Before')).toBeVisible();
});

test('an error the console caught and uploaded shows in the error-log viewer with its stack', async ({ page }) => {
  await login(page);
  const boom = `e2e boom ${stamp}`;
  // An unhandled error, as a broken screen would throw one: the console keeps it in its local error log.
  await page.evaluate((m) => setTimeout(() => Promise.reject(new Error(m))), boom);
  await page.getByTestId('error-log').click();
  await page.getByRole('button', { name: '上传服务器' }).click();
  await expect(page.getByText('发送成功').last()).toBeVisible();
  await page.keyboard.press('Escape');

  await openSidebar(page, '系统管理', '错误日志', /\/system\/errorlog/);
  const errors = page.locator('[data-testid="error-log-page"]:visible');
  const row = errors.locator('tr', { hasText: boom }).first();
  await expect(row).toContainText('admin');
  await row.getByRole('button', { name: /查\s*看/ }).click();
  await expect(page.getByTestId('error-detail')).toContainText('Error');
  await expect(page.getByTestId('error-detail')).toContainText(boom);
});
