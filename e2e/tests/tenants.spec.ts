import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { adminToken, clickUntil, dialog, login, loginChanging, openScreen, visibleCrud } from './helpers.ts';

/**
 * A tenant's data (docs/tenants.md): the platform administrator exports a tenant from 租户管理, is refused an import
 * into a tenant that holds data and a cut-short file, imports it back with 替换现有数据; then 数据源管理 and 数据源 —
 * on PostgreSQL (the cluster run, `scripts/cluster.sh e2e`) a real move of the tenant to a database of its own and
 * back, its administrator signing in and listing on the moved tenant in between; on the embedded database the
 * refusal a user gets there.
 */
test.describe.configure({ mode: 'serial' });

const TENANT = '800061';
const NAME = '西城档案';
const PASSWORD = 'Moved#2026ab';
let adminPassword = '';
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-tenant-'));
// Set by scripts/cluster.sh for the run through nginx: the servers' one PostgreSQL database.
const PG_URL = process.env.DATABASE_URL;

const rowOf = (page: Page, text: string) => visibleCrud(page).locator('tr.ant-table-row', { hasText: text });

/** What a user reads in the message toast (antd `message`). */
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice', { hasText: text }).first();

test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  const res = await request.post('/api/blade-system/tenant/submit', {
    headers: { 'blade-auth': `bearer ${token}` },
    data: { tenantId: TENANT, tenantName: NAME },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  adminPassword = String(((await res.json()) as { data: { adminPassword: string } }).data.adminPassword);
});
test.afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** Opens 导入 on the tenant's row, chooses `file`, optionally 替换, and presses 导入. */
async function importFile(page: Page, file: string, replace: boolean) {
  await rowOf(page, TENANT)
    .getByRole('button', { name: /导\s*入/ })
    .click();
  const d = dialog(page);
  await expect(d).toContainText(`导入租户 ${TENANT} 的数据`);
  await d.locator('input[type=file]').setInputFiles(file);
  if (replace) await d.getByText('替换现有数据（先删除该租户的全部数据）').click();
  await d.getByRole('button', { name: /导\s*入/ }).click();
}

test('exports a tenant, is refused a non-empty tenant and a cut file, imports it back with replace', async ({
  page,
}) => {
  await login(page);
  await openScreen(page, '系统管理', '租户管理');
  await expect(rowOf(page, TENANT)).toContainText(NAME);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    rowOf(page, TENANT)
      .getByRole('button', { name: /导\s*出/ })
      .click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^tenant-${TENANT}-\\d{4}-\\d{2}-\\d{2}\\.ndjson\\.gz$`));
  const file = path.join(workDir, download.suggestedFilename());
  await download.saveAs(file);
  await expect(toast(page, `租户 ${TENANT} 已导出`)).toBeVisible();
  const lines = gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n').filter(Boolean);
  const head = JSON.parse(lines[0]) as { format: string; version: number; tenantId: string; tables: string[] };
  expect(head).toMatchObject({ format: 'atrium-tenant-export', version: 1, tenantId: TENANT });
  const trailer = JSON.parse(lines.at(-1)!) as { end: boolean; tables: number; rows: number };
  expect(trailer.end).toBe(true);
  expect(trailer.rows).toBeGreaterThan(0);

  // The tenant holds its rows: an import without 替换 is refused, and nothing changes.
  await importFile(page, file, false);
  await expect(toast(page, '该租户已有数据：导入只写入空租户，如需覆盖请选择“替换现有数据”')).toBeVisible();
  await dialog(page)
    .getByRole('button', { name: /取\s*消/ })
    .click();

  // A file cut short names its first bad line and writes nothing, even with 替换.
  const cut = path.join(workDir, 'cut.ndjson');
  fs.writeFileSync(cut, lines.slice(0, -1).join('\n') + '\n');
  await importFile(page, cut, true);
  await expect(toast(page, /导出文件第 \d+ 行已损坏或被截断，未导入任何数据/)).toBeVisible();
  await dialog(page)
    .getByRole('button', { name: /取\s*消/ })
    .click();

  await importFile(page, file, true);
  await expect(toast(page, `已导入 ${trailer.tables} 张表共 ${trailer.rows} 行`)).toBeVisible();
  await expect(dialog(page)).toBeHidden();
});

/** Opens 数据源 on the tenant's row, picks `option` and waits for the move's message. */
async function moveTo(page: Page, option: string) {
  await openScreen(page, '系统管理', '租户管理');
  await rowOf(page, TENANT)
    .getByRole('button', { name: /数\s*据\s*源/ })
    .click();
  const d = dialog(page);
  await expect(d).toContainText('迁移期间该租户的请求将暂时被拒绝（503），完成后自动恢复。');
  await d.locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).click();
  await clickUntil(d.getByRole('button', { name: /确\s*定|OK/ }), () =>
    expect(toast(page, /迁移完成：\d+ 行，用时 \d+ 毫秒/)).toBeVisible({ timeout: 2_000 }),
  );
  await expect(d).toBeHidden();
}

/** Where the tenant's rows are, as the main database's tenant row says (null: the main database). */
async function boundTo(): Promise<string | null> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const r = await c.query(`select datasource_id::text as ds from tenant where tenant_id = $1`, [TENANT]);
    return (r.rows[0] as { ds: string | null }).ds;
  } finally {
    await c.end();
  }
}

const database = `atrium_e2e_${randomBytes(4).toString('hex')}`;
const dsName = `tenant-db-${database.slice(-8)}`;

test('数据源管理: a data source saved and its connection tested; the tenant moved there', async ({ page }) => {
  await login(page);
  await openScreen(page, '系统管理', '数据源管理');
  const crud = visibleCrud(page);
  const save = async (name: string, url: string) => {
    await crud.getByRole('button', { name: /新\s*增/ }).click();
    await dialog(page).getByLabel('名称').fill(name);
    await dialog(page).getByLabel('连接地址').fill(url);
    await dialog(page).getByLabel('用户名').fill('postgres');
    await dialog(page)
      .getByRole('button', { name: /提\s*交/ })
      .click();
  };
  if (!PG_URL) {
    // The embedded database: a loopback address is refused by the address rules (no private network allowed here).
    await save('loopback', 'postgres://127.0.0.1:5432/atrium_nowhere');
    await expect(
      toast(page, '数据源地址 127.0.0.1 位于内网或保留网段，未在 ATRIUM_DATASOURCE_PRIVATE_NETWORKS 中允许'),
    ).toBeVisible();
    return;
  }
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`create database ${database}`).finally(() => c.end());
  await save(dsName, `postgres://127.0.0.1:5432/${database}`);
  await expect(rowOf(page, dsName)).toBeVisible();
  await rowOf(page, dsName).getByRole('button', { name: '测试连接' }).click();
  await expect(toast(page, '连接成功')).toBeVisible();
  await moveTo(page, dsName);
  expect(await boundTo()).not.toBeNull();
});

test('on its own database, the tenant administrator signs in and lists its departments', async ({ page }) => {
  test.skip(!PG_URL, 'the embedded database moves no tenant (the cluster run, on PostgreSQL, does)');
  await loginChanging(page, TENANT, 'admin', adminPassword, PASSWORD);
  await openScreen(page, '系统管理', '机构管理');
  await expect(visibleCrud(page)).toContainText(NAME);
});

test('moved back to the main database', async ({ page }) => {
  test.skip(!PG_URL, 'the embedded database moves no tenant (the cluster run, on PostgreSQL, does)');
  await login(page);
  await moveTo(page, '主库（默认）');
  expect(await boundTo()).toBeNull();
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`drop database if exists ${database} with (force)`).finally(() => c.end());
});
