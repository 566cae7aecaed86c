import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { subdomain_list } from '@atrium/contract/resources/subdomain/subdomain_list';
import { customerTexts } from '../../apps/web/src/features/customer/messages.ts';
import { subdomainPageTexts } from '../../apps/web/src/features/subdomain/messages.ts';
import { smsSendTexts } from '../../apps/web/src/features/resource/messages.ts';
import { clientTexts } from '../../apps/server/src/modules/client/messages.ts';
import { subdomainTexts } from '../../apps/server/src/modules/subdomain/messages.ts';
import { outboxTexts } from '../../apps/server/src/modules/outbox/messages.ts';
import {
  adminApi,
  buttonName,
  chooseLanguage,
  LANGS,
  menuNames,
  openMenu,
  pattern,
  rowsOf,
  signIn,
  signInChanging,
  TENANT,
  webTexts,
  type Lang,
} from './lang.ts';
import { clickUntil } from './helpers.ts';

/**
 * Clients (docs/clients.md, docs/subdomains.md), once in Chinese and once in English — the language chosen on the
 * page as a user does, every text expected from the web app's locale files, the definitions, the server's messages
 * and the menu seed: a visitor registers on the public page with the SMS code read from the outbox; a region
 * administrator approves the client; the client signs in and applies for a sub-domain (with the live legality
 * check); staff approve it, start and stop it on their screens while the public `ask` follows; staff send an SMS
 * from the SMS screen's dialog; a blacklisted phone gets no code (docs/clients.md "End-to-end journey").
 */

const CLIENT_PASSWORD = 'Client#2026x';
// Data unique to this run and language: two runs against one server, or the two languages, never collide.
const STAMP = String(Date.now()).slice(-7);

/** The texts one language shows, from where the app takes them. */
function textsOf(lang: Lang) {
  const web = webTexts(lang);
  const reg = customerTexts[lang].clientReg;
  const customer = customerTexts[lang].customer;
  const sub = subdomainPageTexts[lang];
  const send = smsSendTexts[lang];
  const field = (name: keyof typeof clientinfo.fields) => clientinfo.fields[name].label[lang];
  const menu = (group: string, screen: string) => menuNames(lang, group, screen);
  return { web, reg, customer, sub, send, field, menu };
}

const dialog = (page: Page) => page.locator('.ant-modal:visible').last();

/** The SMS code last sent to `phone`, read from the outbox as the platform administrator — in `lang`'s wording. */
async function smsCode(request: APIRequestContext, phone: string, lang: Lang): Promise<string> {
  const api = await adminApi(request);
  const wording = pattern(clientTexts.smsCode[lang], { code: '(\\d{6})' });
  let code = '';
  await expect
    .poll(async () => {
      // The outbox sorts by recipient or sent time only: the newest code is the one of the highest id.
      const rows = rowsOf(await api.get('/api/blade-resource/outbox/list', { recipient: phone, size: 100 }));
      const newest = [...rows].sort((a, b) => (BigInt(String(b.id)) > BigInt(String(a.id)) ? 1 : -1));
      code = newest.map((r) => wording.exec(String(r.content ?? ''))?.[1]).find(Boolean) ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

for (const [index, lang] of LANGS.entries()) {
  const T = textsOf(lang);
  // 139 + 7 digits of the run + 1 digit of the language: 11 digits, unique per run and language.
  const PHONE = `139${STAMP}${index + 1}`;
  const BLOCKED_PHONE = `137${STAMP}${index + 1}`;
  const CLIENT_NAME = lang === 'zh' ? `东城便利店e2e-${STAMP}` : `Dongcheng shop e2e-${STAMP}`;
  const REGION_ADMIN = `region_e2e_${lang}_${STAMP}`;
  const LABEL = `shop-${lang}-${STAMP}`;
  let fullDomain = '';

  test.describe(`${lang}`, () => {
    // Each test starts signed out (a fresh browser context); the tests of a language build on each other's data.
    test.describe.configure({ mode: 'serial' });

    test(`${lang}: a visitor registers through the public page`, async ({ page }) => {
      await page.goto('/register');
      await chooseLanguage(page, lang);
      await expect(page.getByRole('heading', { name: T.reg.title })).toBeVisible();
      const tenant = page.getByLabel(T.reg.tenant, { exact: true });
      if (await tenant.count()) await tenant.fill(TENANT);
      await page.getByLabel(T.reg.phone, { exact: true }).fill(PHONE);
      await page.getByRole('button', { name: T.reg.next }).click();

      await page.getByTestId('send-code').click();
      await expect(page.getByText(T.reg.codeSent)).toBeVisible();
      const code = await smsCode(page.request, PHONE, lang);
      await page.getByLabel(T.reg.code, { exact: true }).fill(code);
      await page.getByRole('button', { name: T.reg.next }).click();

      const form = page.locator('form').filter({ has: page.getByLabel(T.field('creditCode'), { exact: true }) });
      await expect(form).toBeVisible();
      await form.getByLabel(T.field('clientName'), { exact: true }).fill(CLIENT_NAME);
      await form.getByLabel(T.field('clientType'), { exact: true }).click();
      const shop = clientinfo.fields.clientType.options.find((o) => o.value === 1)!.label[lang];
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .getByText(shop, { exact: true })
        .click();
      await form.getByLabel(T.field('creditCode'), { exact: true }).fill('91110108MA01ABCD0B');
      await form.getByLabel(T.field('contactName'), { exact: true }).fill('Zhang San');
      await form.getByLabel(T.field('contactIdCard'), { exact: true }).fill('11010519491231002X');
      await form.getByLabel(T.field('email'), { exact: true }).fill(`shop-e2e-${lang}-${STAMP}@example.com`);

      // The region: the cascader over the tenant's tree, or the code input when the levels cannot be read. Region
      // names are the registry's, in Chinese in both languages.
      const fallback = form.getByPlaceholder('110101');
      const cascader = form.locator('.ant-cascader');
      await expect(fallback.or(cascader).first()).toBeVisible();
      if (await fallback.isVisible()) {
        await fallback.fill('110101');
      } else {
        await cascader.click();
        const menus = page.locator('.ant-cascader-dropdown:visible');
        // Each level loads when its parent is clicked.
        await clickUntil(menus.getByText('北京市', { exact: true }), () =>
          expect(menus.getByText('市辖区', { exact: true })).toBeVisible({ timeout: 3_000 }),
        );
        await clickUntil(menus.getByText('市辖区', { exact: true }), () =>
          expect(menus.getByText('东城区', { exact: true })).toBeVisible({ timeout: 3_000 }),
        );
        await menus.getByText('东城区', { exact: true }).click();
        await page.keyboard.press('Escape');
        await expect(cascader).toContainText('东城区');
      }

      await form.getByLabel(T.reg.password, { exact: true }).fill(CLIENT_PASSWORD);
      await form.getByLabel(T.reg.confirm, { exact: true }).fill(CLIENT_PASSWORD);
      await form.getByRole('button', { name: buttonName(T.reg.submit) }).click();

      const alert = page.locator('.ant-modal-confirm:visible');
      await expect(alert.locator('.ant-modal-confirm-title')).toHaveText(T.reg.doneTitle);
      await expect(alert.getByText(T.reg.done)).toBeVisible();
      await clickUntil(alert.getByRole('button', { name: buttonName(T.web.common.ok) }), () =>
        expect(page).toHaveURL(/\/register\/status\?/, { timeout: 3_000 }),
      );
      await expect(page.getByTestId('review-status')).toContainText(T.reg.status.pending);
    });

    test(`${lang}: a region administrator approves the client`, async ({ page }) => {
      const api = await adminApi(page.request);
      const roles = rowsOf(await api.get('/api/blade-system/role/list', { roleAlias: 'region_admin' }));
      const role = roles.find((r) => r.roleAlias === 'region_admin');
      expect(role, JSON.stringify(roles)).toBeTruthy();
      await api.post('/api/blade-user/submit', {
        account: REGION_ADMIN,
        realName: `dc-${lang}`,
        name: `dc-${lang}`,
        password: 'Region#2026x',
        roleIds: [String(role!.id)],
        regionCode: '110101',
      });

      await signInChanging(page, lang, REGION_ADMIN, 'Region#2026x', 'Region#2026y');
      await openMenu(page, lang, 'customer', 'approval');
      const screen = page.locator('[data-testid="approval-page"]:visible');
      await expect(screen.getByRole('tab', { name: T.customer.tabPending })).toHaveAttribute('aria-selected', 'true');
      const row = screen.locator('tr', { hasText: CLIENT_NAME });
      await expect(row).toBeVisible();
      await row.getByRole('button', { name: buttonName(T.customer.pass) }).click();
      await expect(dialog(page)).toContainText(T.customer.pass);
      await clickUntil(dialog(page).getByRole('button', { name: buttonName(T.web.common.submit) }), () =>
        expect(page.getByText(T.customer.approved, { exact: true }).last()).toBeVisible({ timeout: 3_000 }),
      );
      await expect(screen.locator('tr', { hasText: CLIENT_NAME })).toHaveCount(0);
    });

    test(`${lang}: the client signs in and applies for a sub-domain with a live check`, async ({ page }) => {
      await signIn(page, lang, PHONE, CLIENT_PASSWORD);
      await expect(page).toHaveURL(/\/wel\/index/);
      await openMenu(page, lang, 'subdomain', 'subdomain_list');
      const crud = page.locator('[data-testid="crud-page"]:visible');
      await expect(crud).toBeVisible();
      await crud.getByRole('button', { name: T.sub.apply }).click();
      const d = dialog(page);
      const name = d.getByLabel(T.sub.name, { exact: true });
      await name.fill('www');
      await expect(d.getByText(subdomainTexts.reserved[lang])).toBeVisible();
      await expect(d.getByRole('button', { name: buttonName(T.sub.submit) })).toBeDisabled();
      await name.fill(LABEL);
      const shown = pattern(T.sub.fullDomain, { domain: `(${LABEL}\\..+)` });
      const full = d.getByText(new RegExp(`^${shown.source}$`));
      await expect(full).toBeVisible();
      fullDomain = shown.exec((await full.textContent())!)![1].trim();
      await d.getByRole('button', { name: buttonName(T.sub.submit) }).click();
      await expect(page.locator('.ant-message').getByText(fullDomain, { exact: true })).toBeVisible();
      await expect(d).toBeHidden();
      await expect(crud.locator('tr', { hasText: LABEL })).toBeVisible();
    });

    test(`${lang}: staff approve, start and stop the sub-domain on their screens; the public ask follows`, async ({
      page,
    }) => {
      expect(fullDomain).toMatch(new RegExp(`^${LABEL}\\.`));
      const ask = async () =>
        (await page.request.get('/api/blade-business/subDomain/ask', { params: { domain: fullDomain } })).status();
      const actions = subdomain_list.actions!;
      const status = subdomain_list.fields.status.options;
      const stateName = (value: number) => status.find((o) => o.value === value)!.label[lang];

      await signIn(page, lang, 'admin', 'admin');
      await expect(page).toHaveURL(/\/wel\/index/);
      await openMenu(page, lang, 'customer', 'approval');
      const approvals = page.locator('[data-testid="approval-page"]:visible');
      const application = approvals.locator('tr', { hasText: LABEL });
      await expect(application).toBeVisible();
      await application.getByRole('button', { name: buttonName(T.customer.pass) }).click();
      await clickUntil(dialog(page).getByRole('button', { name: buttonName(T.web.common.submit) }), () =>
        expect(page.getByText(T.customer.approved, { exact: true }).last()).toBeVisible({ timeout: 3_000 }),
      );
      expect(await ask()).toBe(404);

      await openMenu(page, lang, 'subdomain', 'subdomain_list');
      const crud = page.locator('[data-testid="crud-page"]:visible');
      const row = crud.locator('tr', { hasText: LABEL });
      await expect(row).toContainText(stateName(1));
      const confirmAndWait = async (name: 'start' | 'stop', state: number) => {
        await row.getByRole('button', { name: buttonName(actions[name].label[lang]) }).click();
        const confirm = page.locator('.ant-modal-confirm:visible');
        await expect(confirm).toContainText(actions[name].confirm![lang]);
        await confirm.getByRole('button', { name: buttonName(T.web.common.ok) }).click();
        await expect(page.locator('.ant-message').getByText(actions[name].done[lang], { exact: true })).toBeVisible();
        await expect(row).toContainText(stateName(state));
      };
      await confirmAndWait('start', 2);
      expect(await ask()).toBe(200);
      await confirmAndWait('stop', 3);
      expect(await ask()).toBe(404);
    });

    test(`${lang}: staff send an SMS from the SMS screen; the outbox holds it`, async ({ page }) => {
      const TO = `136${STAMP}${index + 1}`;
      await signIn(page, lang, 'admin', 'admin');
      await expect(page).toHaveURL(/\/wel\/index/);
      await openMenu(page, lang, 'resource', 'sms');
      const crud = page.locator('[data-testid="crud-page"]:visible');
      await crud.getByRole('button', { name: T.send.button }).click();
      const d = dialog(page);
      await expect(d.locator('.ant-modal-title')).toHaveText(T.send.title);
      const phones = d.getByLabel(T.send.phones, { exact: true });
      await phones.fill(`${TO}\n12345`);
      await expect(d.getByText(pattern(T.send.phoneBad, { phone: '12345' }))).toBeVisible();
      await phones.fill(TO);
      const params = d.getByLabel(T.send.params, { exact: true });
      await params.fill('code');
      await expect(d.getByText(pattern(T.send.paramsBadLine, { line: '1' }))).toBeVisible();
      await params.fill('code=246810');
      await d.getByRole('button', { name: buttonName(T.send.submit) }).click();
      const sent = T.send.sent.replace('{{msg}}', outboxTexts.queued[lang]).replace('{{count}}', '1');
      await expect(page.locator('.ant-message').getByText(sent, { exact: true })).toBeVisible();
      await expect(d).toBeHidden();

      const api = await adminApi(page.request);
      const rows = rowsOf(await api.get('/api/blade-resource/outbox/list', { recipient: TO, size: 10 }));
      expect(rows.map((r) => [r.channel, r.recipient])).toEqual([['sms', TO]]);
    });

    test(`${lang}: a blacklisted phone cannot get a code`, async ({ page }) => {
      const api = await adminApi(page.request);
      await api.post('/api/blade-business/blackinfo/submit', { type: 1, value: BLOCKED_PHONE });

      await page.goto('/register');
      await chooseLanguage(page, lang);
      await expect(page.getByRole('heading', { name: T.reg.title })).toBeVisible();
      const tenant = page.getByLabel(T.reg.tenant, { exact: true });
      if (await tenant.count()) await tenant.fill(TENANT);
      await page.getByLabel(T.reg.phone, { exact: true }).fill(BLOCKED_PHONE);
      await page.getByRole('button', { name: T.reg.next }).click();
      await expect(page.getByText(T.reg.blocked)).toBeVisible();
      // Still on the phone step: there is no way to ask for a code.
      await expect(page.getByTestId('send-code')).toHaveCount(0);
      await expect(page.getByLabel(T.reg.phone, { exact: true })).toBeVisible();
    });
  });
}
