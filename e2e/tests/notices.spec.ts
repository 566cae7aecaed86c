import type { Page } from '@playwright/test';
import { notice } from '@atrium/contract/resources/desk/notice';
import { role as roleResource } from '@atrium/contract/resources/system/role';
import { user as userResource } from '@atrium/contract/resources/system/user';
import { expect, test } from './fixtures.ts';
import { adminApi, buttonName, LANGS, openMenu, signIn, signInChanging, webTexts } from './lang.ts';

/**
 * Notices and the bell (docs/notices.md), in Chinese and in English: the administrator writes a notice in the rich-text
 * editor and publishes it, and a notice whose content holds hostile payloads (a script tag, an image whose onerror sets
 * window.__xss, a javascript: link, an SVG onload) reaches the server as an editor-less client would send it. Another
 * user sees the bell's dot, opens the bell, opens the notice: its text is there, nothing of the payload ran — no
 * window.__xss, no dialog — and the bell is seen.
 */
test.describe.configure({ mode: 'serial' });

const STAMP = Date.now().toString(36).slice(-5);
const PASSWORD = 'Notice#2026a';
const NEXT = 'Notice#2026b';
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
const visibleCrud = (page: Page) => page.locator('[data-testid="crud-page"]:visible');
const HOSTILE = [
  '<p>Harmless text of the notice</p>',
  '<script>window.__xss = "script"</script>',
  '<img src="x" onerror="window.__xss = \'img\'">',
  '<p><a href="javascript:window.__xss=\'link\'">click me</a></p>',
  '<svg onload="window.__xss = \'svg\'"><circle r="5"/></svg>',
  '<p style="color:red" onmouseover="window.__xss=\'hover\'">styled text</p>',
].join('');

/** Records any dialog (alert, confirm, prompt) the page opens, and dismisses it. */
function watchDialogs(page: Page) {
  const fired: string[] = [];
  page.on('dialog', (d) => {
    fired.push(d.message());
    void d.dismiss();
  });
  return fired;
}

async function expectHarmless(page: Page, fired: string[]) {
  const content = page.getByTestId('notice-content');
  await expect(content).toContainText('Harmless text of the notice');
  await expect(content).toContainText('styled text');
  await expect(content.locator('script, svg, [onerror], [onload], [onmouseover], [style]')).toHaveCount(0);
  const link = content.getByText('click me', { exact: true });
  await expect(link).toBeVisible();
  await expect(link).not.toHaveAttribute('href', /.*/);
  await link.click();
  await content.getByText('styled text').hover();
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  expect(fired).toEqual([]);
}

for (const lang of LANGS) {
  test(`a notice with hostile content is harmless in the bell and the read view (${lang})`, async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const web = webTexts(lang);
    const L = (m: { zh: string; en: string }) => m[lang];
    const api = await adminApi(request);
    const fired = watchDialogs(page);

    // ——— The administrator writes and publishes a notice in the editor ———
    await signIn(page, lang, 'admin', 'admin');
    await expect(page).toHaveURL(/\/wel\/index/);
    await openMenu(page, lang, 'desk', 'notice');
    const crud = visibleCrud(page);
    await crud.getByRole('button', { name: buttonName(lang === 'zh' ? '新增' : 'Add') }).click();
    const d = dialog(page);
    const title = `${lang === 'zh' ? '网络维护' : 'Network work'} ${STAMP}`;
    await d.getByLabel(L(notice.fields.title.label), { exact: true }).fill(title);
    await d.getByLabel(L(notice.fields.category.label), { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: lang === 'zh' ? '发布通知' : 'Announcement' })
      .first()
      .click();
    const release = d.getByLabel(L(notice.fields.releaseTime.label), { exact: true });
    await release.click();
    await release.fill('2026-11-01 08:00:00');
    await release.press('Enter');
    await d.getByLabel(L(notice.fields.status.label), { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: L(notice.fields.status.options![1].label) })
      .first()
      .click();
    const editor = d.getByTestId('notice-editor').locator('.ProseMirror');
    await editor.click();
    await editor.pressSequentially('Maintenance from 22:00 ');
    await d.getByRole('button', { name: web.notice.editor.bold }).click();
    await editor.pressSequentially('tonight');
    await d.getByRole('button', { name: buttonName(web.common.submit) }).click();
    const row = crud.locator('tr', { hasText: title });
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: buttonName(web.notice.read) }).click();
    const read = page.getByTestId('notice-content');
    await expect(read.locator('strong')).toHaveText('tonight');
    await expect(read).toContainText('Maintenance from 22:00');
    await page.keyboard.press('Escape');

    // ——— A notice with hostile payloads, sent as a client without the editor would ———
    const hostileTitle = `${lang === 'zh' ? '季度通知' : 'Quarterly notice'} ${STAMP}`;
    const saved = await api.post<{ id: string; content: string }>(`${notice.base}/submit`, {
      title: hostileTitle,
      category: 1,
      status: 2,
      releaseTime: new Date(Date.now() - 60_000).toISOString(),
      content: HOSTILE,
    });
    expect(saved.content).not.toMatch(/script|onerror|javascript:|svg|style=/i);
    // The administrator's own read view of it.
    await page.reload();
    await visibleCrud(page)
      .locator('tr', { hasText: hostileTitle })
      .getByRole('button', { name: buttonName(web.notice.read) })
      .click();
    await expectHarmless(page, fired);

    // ——— Another user of the tenant: the bell's dot, the notice, harmless ———
    const role = await api.post<{ id: string }>(`${roleResource.base}/submit`, {
      roleName: `${lang === 'zh' ? '读者' : 'Reader'}${STAMP}`,
      roleAlias: `reader_${lang}_${STAMP}`,
      parentId: '0',
      sort: 95,
    });
    const account = `rd${lang}${STAMP}`;
    await api.post(`${userResource.base}/submit`, {
      account,
      realName: account.slice(0, 10),
      name: account.slice(0, 10),
      password: PASSWORD,
      roleIds: [role.id],
    });
    const context = await browser.newContext();
    const other = await context.newPage();
    const otherFired = watchDialogs(other);
    await signInChanging(other, lang, account, PASSWORD, NEXT);
    const badge = other.getByTestId('notice-badge');
    await expect(badge.locator('.ant-badge-dot')).toBeVisible({ timeout: 15_000 });
    await other.getByTestId('notice').click();
    const item = other.getByTestId('bell-notice').filter({ hasText: hostileTitle });
    await expect(item).toBeVisible();
    await expect(item).toContainText(web.notice.isNew);
    await expect(other.getByTestId('bell-notice').filter({ hasText: title })).toBeVisible();
    await item.click();
    await expect(dialog(other)).toContainText(hostileTitle);
    await expectHarmless(other, otherFired);
    await other.keyboard.press('Escape');
    // Opening the bell marked everything seen: no dot, after a reload too.
    await expect(badge.locator('.ant-badge-dot')).toHaveCount(0);
    await other.reload();
    await expect(other.getByTestId('notice')).toBeVisible();
    await other.waitForTimeout(1_000);
    await expect(other.getByTestId('notice-badge').locator('.ant-badge-dot')).toHaveCount(0);
    expect(await other.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    await context.close();
  });
}
