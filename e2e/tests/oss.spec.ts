// s3rver's types: apps/server/test/support/s3rver.d.ts (in this folder's tsconfig).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import S3rver from 's3rver';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { website } from '@atrium/contract';
import { oss } from '@atrium/contract/resources/resource/oss';
import { attach } from '@atrium/contract/resources/resource/attach';
import { menuSeed } from '../../apps/server/src/db/seed-data/menus.ts';
import { expect, test } from './fixtures.ts';
import { login, openSidebar } from './helpers.ts';

/**
 * Object storage and attachments (docs/system-api.md "Files"), in Chinese and in English: an S3 configuration made and
 * enabled on 对象存储 against s3rver on loopback, an avatar uploaded through it and shown (the files cookie; the bare
 * link is a 404), seen and previewed on 附件管理, removed there — and its object gone from the bucket.
 */

type Lang = 'zh' | 'en';
const BUCKET = 'e2e-files';
let s3: S3rver;
let endpoint = '';
let dir = '';

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-s3-'));
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  });
  endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
});
test.afterAll(async () => {
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
const visibleCrud = (page: Page) => page.locator('[data-testid="crud-page"]:visible');
const spaced = (text: string) =>
  new RegExp(
    `(^|\\s)${[...text.replace(/\s+/g, '')].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')}$`,
  );

function menu(lang: Lang, screen: string) {
  const g = menuSeed.find((m) => m.code === 'resource')!;
  const s = g.children!.find((m) => m.code === screen)!;
  const name = (m: { name: string; alias?: string }) => (lang === 'zh' ? m.name : m.alias!);
  return [name(g), name(s)] as const;
}

for (const lang of ['zh', 'en'] as Lang[]) {
  test(`configure and enable S3, upload an avatar through it, see it in attachments, remove it (${lang})`, async ({
    page,
    request,
  }) => {
    const L = (m: { zh: string; en: string }) => m[lang];
    await page.addInitScript(
      ([key, value]) => localStorage.setItem(key, JSON.stringify({ content: value })),
      [`${website.keyPrefix}language`, lang],
    );
    await login(page);
    const code = `s3-${lang}-${Date.now().toString(36)}`;

    // 1. The configuration, through the screen.
    const [group, ossScreen] = menu(lang, 'oss');
    await openSidebar(page, group, ossScreen, /\/resource\/oss/);
    const crud = visibleCrud(page);
    await crud.getByRole('button', { name: spaced(lang === 'zh' ? '新增' : 'Add') }).click();
    const d = dialog(page);
    await d.getByLabel(L(oss.fields.ossCode.label), { exact: true }).fill(code);
    await d.getByLabel(L(oss.fields.category.label), { exact: true }).click();
    await page
      .locator('.ant-select-dropdown:visible')
      .getByText(L(oss.fields.category.options[1].label), { exact: true })
      .click();
    await d.getByLabel(L(oss.fields.endpoint.label), { exact: true }).fill(endpoint);
    await d.getByLabel(L(oss.fields.bucketName.label), { exact: true }).fill(BUCKET);
    await d.getByLabel(L(oss.fields.accessKey.label), { exact: true }).fill('S3RVER');
    await d.getByLabel(L(oss.fields.secretKey.label), { exact: true }).fill('Secret#e2e');
    await d.getByRole('button', { name: spaced(lang === 'zh' ? '提交' : 'Submit') }).click();
    await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
    const row = crud.locator('tbody tr', { has: page.getByText(code, { exact: true }) });
    await row.getByRole('button', { name: spaced(L(oss.actions!.enable.label)) }).click();
    const enabled = page.waitForResponse((r) => r.url().endsWith('/oss/enable'));
    await page
      .locator('.ant-modal-confirm:visible, .ant-popover:visible')
      .last()
      .getByRole('button', { name: spaced(lang === 'zh' ? '确定' : 'OK') })
      .click();
    expect((await enabled).ok()).toBeTruthy();
    await expect(row).toContainText(L(oss.fields.status.options[1].label));

    // 2. An avatar, uploaded on the personal page: it lands in the bucket.
    await page.goto('/info/index');
    const png = path.join(os.tmpdir(), `atrium-avatar-${lang}.png`);
    fs.writeFileSync(
      png,
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    const uploaded = page.waitForResponse((r) => r.url().includes('/oss/endpoint/put-file'));
    await page.locator('input[type="file"]').setInputFiles(png);
    const { link, name } = (await (await uploaded).json()).data as { link: string; name: string };
    expect(link).toBe(`/files/000000/${name}`);
    const avatar = page.locator(`img[src="${link}"]`).first();
    await expect(avatar).toBeVisible();
    // It is shown (the files cookie of the sign-in goes with the <img>); without the cookie the link is nothing.
    await expect.poll(() => avatar.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
    expect((await page.request.get(link)).status()).toBe(200);
    expect((await request.get(link)).status()).toBe(404);
    const raw = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const head = () => raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `000000/${name}` }));
    await expect(head()).resolves.toBeTruthy();

    // 3. On the attachments screen: listed with its configuration, previewed, removed — the object goes too.
    const [, attachScreen] = menu(lang, 'attach');
    await openSidebar(page, group, attachScreen, /\/resource\/attach/);
    const list = visibleCrud(page);
    const mine = list.locator('tbody tr', { has: page.getByText(code, { exact: true }) });
    await expect(mine).toContainText(path.basename(png));
    await mine.getByRole('button', { name: spaced(lang === 'zh' ? '预览' : 'Preview') }).click();
    await expect(page.getByTestId('attach-preview')).toBeVisible();
    await expect
      .poll(() => page.getByTestId('attach-preview').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth))
      .toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
    await mine.getByRole('button', { name: spaced(lang === 'zh' ? '删除' : 'Delete') }).click();
    const removed = page.waitForResponse((r) => r.url().includes(`${attach.base.replace(/^\/api/, '')}/remove`));
    await page
      .locator('.ant-modal-confirm:visible, .ant-popover:visible')
      .last()
      .getByRole('button', { name: spaced(lang === 'zh' ? '确定' : 'OK') })
      .click();
    expect((await removed).ok()).toBeTruthy();
    await expect(mine).toHaveCount(0);
    await expect(head()).rejects.toThrow();
  });
}
