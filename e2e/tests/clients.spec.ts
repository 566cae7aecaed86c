import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { captchaCode, currentCaptchaCode, login } from './helpers.ts';

/**
 * Clients (docs/clients.md, docs/subdomains.md): a visitor registers on the public page with the SMS code read from
 * the outbox; a region administrator approves the client; the client signs in and applies for a sub-domain (with the
 * live legality check); staff approve, start and stop it while the public `ask` follows; a blacklisted phone gets no
 * code, in English.
 */
// Each test starts signed out (a fresh browser context); they build on each other's data.
test.describe.configure({ mode: 'serial' });

const TENANT = '000000';
const PHONE = '13900000001';
const CLIENT_PASSWORD = 'Client#2026x';
const CLIENT_NAME = '东城e2e便利店';
const BLOCKED_PHONE = '13900000009';

type Envelope<T> = { code: number; success: boolean; msg: string; data: T };
type Row = Record<string, unknown>;
const rowsOf = (data: unknown): Row[] =>
  Array.isArray(data) ? (data as Row[]) : (((data as { records?: Row[] } | null)?.records ?? []) as Row[]);

/** Signs the platform administrator in through the API, as the login page does, and returns its token. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const captcha = await request.get('/api/blade-auth/oauth/captcha');
  expect(captcha.ok()).toBeTruthy();
  const { key } = (await captcha.json()) as { key: string };
  const code = await captchaCode(key);
  const res = await request.post('/api/blade-auth/oauth/token', {
    headers: {
      Authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0',
      'Tenant-Id': TENANT,
      'Captcha-Key': key,
      'Captcha-Code': code,
    },
    params: {
      tenantId: TENANT,
      username: 'admin',
      password: createHash('md5').update('admin').digest('hex'),
      grant_type: 'captcha',
      scope: 'all',
      type: 'account',
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { access_token: string }).access_token;
}

/** An API caller signed in as the platform administrator. */
async function adminApi(request: APIRequestContext) {
  const token = await adminToken(request);
  const headers = { 'Blade-Auth': `bearer ${token}`, 'Tenant-Id': TENANT };
  const check = async <T>(res: Awaited<ReturnType<APIRequestContext['get']>>) => {
    const text = await res.text();
    expect(res.ok(), `${res.url()}: ${text}`).toBeTruthy();
    return (JSON.parse(text) as Envelope<T>).data;
  };
  return {
    get: async <T = unknown>(url: string, params?: Record<string, string | number>) =>
      check<T>(await request.get(url, { headers, params })),
    post: async <T = unknown>(url: string, data: unknown) => check<T>(await request.post(url, { headers, data })),
  };
}

/** Logs in; a first password is changed on the page the console forces. */
async function loginChanging(page: Page, account: string, password: string, next: string) {
  await page.goto('/login');
  const code = await currentCaptchaCode(page);
  await page.getByPlaceholder(/租户/).fill(TENANT);
  await page.getByPlaceholder(/用户名/).fill(account);
  await page.getByPlaceholder(/^(请输入)?密码/).fill(password);
  await page.getByPlaceholder(/验证码/).fill(code);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(/\/info\/index\?tab=password/);
  await page.getByLabel('原密码').fill(password);
  await page.getByLabel('新密码').fill(next);
  await page.getByLabel('确认密码').fill(next);
  await page.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('修改成功').first()).toBeVisible();
}

const sidebar = (page: Page) => page.getByTestId('sidebar');
async function openMenu(page: Page, group: string, screen: string) {
  const item = sidebar(page).getByText(screen, { exact: true });
  if (!(await item.isVisible())) await sidebar(page).getByText(group, { exact: true }).click();
  await item.click();
}
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();

/** The SMS code last sent to `phone`, read from the outbox as the platform administrator. */
async function smsCode(request: APIRequestContext, phone: string): Promise<string> {
  const api = await adminApi(request);
  let code = '';
  await expect
    .poll(async () => {
      // The outbox sorts by recipient or sent time only: the newest code is the one of the highest id.
      const rows = rowsOf(await api.get('/api/blade-resource/outbox/list', { recipient: phone, size: 100 }));
      const newest = [...rows].sort((a, b) => (BigInt(String(b.id)) > BigInt(String(a.id)) ? 1 : -1));
      code = newest.map((r) => /验证码为 (\d{6})/.exec(JSON.stringify(r))?.[1]).find(Boolean) ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

test('zh: a visitor registers through the public page', async ({ page }) => {
  await page.goto('/register');
  const tenant = page.getByLabel('租户编号');
  if (await tenant.count()) await tenant.fill(TENANT);
  await page.getByLabel('手机号码').fill(PHONE);
  await page.getByRole('button', { name: '下一步' }).click();

  await page.getByTestId('send-code').click();
  await expect(page.getByText('验证码已发送，5 分钟内有效')).toBeVisible();
  const code = await smsCode(page.request, PHONE);
  await page.getByLabel('短信验证码').fill(code);
  await page.getByRole('button', { name: '下一步' }).click();

  const form = page.locator('form').filter({ has: page.getByLabel('统一社会信用代码') });
  await expect(form).toBeVisible();
  await form.getByLabel('客户名称').fill(CLIENT_NAME);
  await form.getByLabel('客户类型').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
  await form.getByLabel('统一社会信用代码').fill('91110108MA01ABCD0B');
  await form.getByLabel('联系人', { exact: true }).fill('张三');
  await form.getByLabel(/身份证/).fill('11010519491231002X');
  await form.getByLabel(/邮箱/).fill('shop-e2e@example.com');

  // The region: the cascader over the tenant's tree, or the code input when the levels cannot be read.
  const fallback = form.getByPlaceholder('110101');
  const cascader = form.locator('.ant-cascader');
  await expect(fallback.or(cascader).first()).toBeVisible();
  if (await fallback.isVisible()) {
    await fallback.fill('110101');
  } else {
    await cascader.click();
    const menus = page.locator('.ant-cascader-dropdown:visible');
    await menus.getByText('北京市', { exact: true }).click();
    await menus.getByText('市辖区', { exact: true }).click();
    await menus.getByText('东城区', { exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(cascader).toContainText('东城区');
  }

  await form.getByLabel('登录密码').fill(CLIENT_PASSWORD);
  await form.getByLabel('确认密码').fill(CLIENT_PASSWORD);
  await form.getByRole('button', { name: '提交注册' }).click();

  const alert = page.locator('.ant-modal-confirm:visible');
  await expect(alert.locator('.ant-modal-confirm-title')).toHaveText('注册提示');
  await expect(alert.getByText('注册申请已提交,请耐心等待管理员通过!')).toBeVisible();
  await alert.getByRole('button').last().click();
  await expect(page).toHaveURL(/\/register\/status\?/);
  await expect(page.getByTestId('review-status')).toContainText('审核中');
});

test('zh: a region administrator approves the client', async ({ page }) => {
  const api = await adminApi(page.request);
  const roles = rowsOf(await api.get('/api/blade-system/role/list', { roleAlias: 'region_admin' }));
  const role = roles.find((r) => r.roleAlias === 'region_admin');
  expect(role, JSON.stringify(roles)).toBeTruthy();
  await api.post('/api/blade-user/submit', {
    account: 'region_e2e',
    realName: '东城区管理员',
    name: '东城区管理员',
    password: 'Region#2026x',
    roleIds: [String(role!.id)],
    regionCode: '110101',
  });

  await loginChanging(page, 'region_e2e', 'Region#2026x', 'Region#2026y');
  await openMenu(page, '客户管理', '客户审批');
  const screen = page.locator('[data-testid="approval-page"]:visible');
  await expect(screen.getByRole('tab', { name: '待审批' })).toHaveAttribute('aria-selected', 'true');
  const row = screen.locator('tr', { hasText: CLIENT_NAME });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /通\s*过/ }).click();
  await expect(dialog(page)).toContainText('通过');
  await dialog(page)
    .getByRole('button', { name: /提\s*交/ })
    .click();
  await expect(page.getByText('已通过', { exact: true }).last()).toBeVisible();
  await expect(screen.locator('tr', { hasText: CLIENT_NAME })).toHaveCount(0);
});

let fullDomain = '';

test('zh: the client signs in and applies for a sub-domain with a live check', async ({ page }) => {
  await login(page, { account: PHONE, password: CLIENT_PASSWORD });
  await openMenu(page, '子域名管理', '子域名');
  const crud = page.locator('[data-testid="crud-page"]:visible');
  await expect(crud).toBeVisible();
  await crud.getByRole('button', { name: '申请子域名' }).click();
  const d = dialog(page);
  const name = d.getByLabel('子域名');
  await name.fill('www');
  await expect(d.getByText('该子域名为系统保留，请换一个')).toBeVisible();
  await expect(d.getByRole('button', { name: '提交申请' })).toBeDisabled();
  await name.fill('shop-e2e');
  const full = d.getByText(/^完整域名：shop-e2e\./);
  await expect(full).toBeVisible();
  fullDomain = (await full.textContent())!.replace('完整域名：', '').trim();
  await d.getByRole('button', { name: '提交申请' }).click();
  await expect(page.locator('.ant-message').getByText(fullDomain, { exact: true })).toBeVisible();
  await expect(d).toBeHidden();
  await expect(crud.locator('tr', { hasText: 'shop-e2e' })).toBeVisible();
});

test('staff approve and start the sub-domain; the public ask follows', async ({ page }) => {
  expect(fullDomain).toMatch(/^shop-e2e\./);
  const api = await adminApi(page.request);
  const pending = rowsOf(await api.get('/api/blade-business/approval/approvalPage', { current: 1, size: 100 }));
  const application = pending.find((r) => r.referType === 'subdomain' && String(r.title).includes('shop-e2e'));
  expect(application, JSON.stringify(pending)).toBeTruthy();
  await api.post('/api/blade-business/approval/businessApproval', { id: application!.id, status: 1 });

  const subs = rowsOf(await api.get('/api/blade-business/subDomain/pagelist', { current: 1, size: 100 }));
  const sub = subs.find((r) => r.subDomain === 'shop-e2e');
  expect(sub, JSON.stringify(subs)).toBeTruthy();
  expect(Number(sub!.status)).toBe(1);

  const ask = () => page.request.get('/api/blade-business/subDomain/ask', { params: { domain: fullDomain } });
  expect((await ask()).status()).toBe(404);
  await api.post('/api/blade-business/subDomain/startSubDomain', { id: sub!.id });
  expect((await ask()).status()).toBe(200);
  await api.post('/api/blade-business/subDomain/stopSubDomain', { id: sub!.id });
  expect((await ask()).status()).toBe(404);
});

test('en: a blacklisted phone cannot get a code', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  try {
    const api = await adminApi(page.request);
    await api.post('/api/blade-business/blackinfo/submit', { type: 1, value: BLOCKED_PHONE });

    await page.goto('/register');
    // The page follows the browser's language; the switch on the page is the other way in.
    const english = page.getByRole('button', { name: 'English' });
    if (await english.isEnabled()) await english.click();
    await expect(page.getByRole('heading', { name: 'Client registration' })).toBeVisible();
    const tenant = page.getByLabel('Tenant ID');
    if (await tenant.count()) await tenant.fill(TENANT);
    await page.getByLabel('Mobile number').fill(BLOCKED_PHONE);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(
      page.getByText('This number cannot be used to register now; contact the platform administrator if in doubt'),
    ).toBeVisible();
    // Still on the phone step: there is no way to ask for a code.
    await expect(page.getByTestId('send-code')).toHaveCount(0);
    await expect(page.getByLabel('Mobile number')).toBeVisible();
  } finally {
    await context.close();
  }
});
