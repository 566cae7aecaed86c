// Screenshots of the workflow management screens in the real console (docs/workflow.md "Screens"): start the server (e.g.
// `PORT=8103 ATRIUM_CAPTCHA=off npm start`), then `npx tsx apps/web/harness/manage-shoot.ts [outDir]`.
// `MANAGE_MOCK=1` answers the workflow calls with the fixtures below instead of the server's.
import { chromium, type Page } from 'playwright-core';
import { sampleXml } from './sample';

const base = process.env.CONSOLE_URL ?? 'http://localhost:8103';
const out = process.argv[2] ?? '/tmp/flow-manage-shots';
const mock = process.env.MANAGE_MOCK === '1';
const errors: string[] = [];

const page1 = <T>(records: T[]) => ({ records, total: records.length, size: 10, current: 1, pages: 1 });
const fixtures: Record<string, unknown> = {
  'model/list': page1([
    {
      id: '11',
      modelKey: 'leave',
      name: 'Leave',
      category: '1',
      description: null,
      version: 3,
      createTime: '2026-11-20T01:00:00Z',
      updateTime: '2026-11-27T01:00:00Z',
      deployedVersion: 2,
    },
    {
      id: '12',
      modelKey: 'expenses',
      name: 'Expenses',
      category: '2',
      description: null,
      version: 1,
      createTime: '2026-11-20T01:00:00Z',
      updateTime: null,
      deployedVersion: null,
    },
  ]),
  'model/detail': {
    id: '11',
    modelKey: 'leave',
    name: 'Leave',
    category: '1',
    description: null,
    version: 3,
    createTime: '2026-11-20T01:00:00Z',
    updateTime: '2026-11-27T01:00:00Z',
    deployedVersion: 2,
    xml: sampleXml,
  },
  'manager/list': page1([
    {
      id: '21',
      deploymentId: '31',
      key: 'leave',
      name: 'Leave',
      category: '1',
      version: 2,
      suspensionState: 1,
      deploymentTime: '2026-11-27T02:00:00Z',
      resourceName: 'leave.bpmn',
      tenantId: '000000',
      formRoute: null,
    },
    {
      id: '22',
      deploymentId: '32',
      key: 'leave',
      name: 'Leave',
      category: '1',
      version: 1,
      suspensionState: 2,
      deploymentTime: '2026-11-26T02:00:00Z',
      resourceName: 'leave.bpmn20.xml',
      tenantId: '000000',
      formRoute: null,
    },
  ]),
  'follow/list': page1([
    {
      processInstanceId: '41',
      processDefinitionId: '21',
      processDefinitionKey: 'leave',
      processDefinitionName: 'Leave',
      processDefinitionVersion: 2,
      category: '1',
      businessId: '51',
      startUser: '7',
      startUserName: 'Zhang San',
      startTime: '2026-11-27T03:00:00Z',
      endTime: null,
      status: 'running',
      deleteReason: null,
      currentSteps: ['Manager approval'],
      suspensionState: 1,
      detailRoute: null,
    },
  ]),
  'process/diagram': { xml: sampleXml, done: ['start', 'f1'], current: ['manager'] },
  'process/history-flow-list': [
    {
      historyActivityId: 'h1',
      historyActivityName: 'Apply',
      historyActivityType: 'startEvent',
      assignee: '7',
      assigneeName: 'Zhang San',
      createTime: '2026-11-27T03:00:00Z',
      endTime: '2026-11-27T03:00:00Z',
      historyActivityDurationTime: 0,
      flag: null,
      comment: null,
    },
    {
      historyActivityId: 'h2',
      historyActivityName: 'Manager approval',
      historyActivityType: 'userTask',
      assignee: '8',
      assigneeName: 'Li Si',
      createTime: '2026-11-27T03:00:00Z',
      endTime: null,
      historyActivityDurationTime: null,
      flag: null,
      comment: null,
    },
  ],
};

async function login(page: Page, lang: string) {
  await page.goto(`${base}/login`);
  await page.evaluate((l) => {
    localStorage.setItem(
      'atrium-language',
      JSON.stringify({ dataType: 'string', content: l, type: '', datetime: Date.now() }),
    );
  }, lang);
  await page.reload();
  await page
    .getByPlaceholder(/用户名|账号|user name|account/i)
    .first()
    .fill('admin');
  await page
    .getByPlaceholder(/^(请输入)?密码|password/i)
    .first()
    .fill('admin');
  await page.getByRole('button', { name: /登\s*录|log\s*in/i }).click();
  await page.waitForURL(/\/wel\/index/);
}

async function open(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForTimeout(1500);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
for (const lang of ['zh', 'en']) {
  for (const width of [1440, 390]) {
    const tag = `${lang}-${width}`;
    const page = await browser.newPage({ viewport: { width, height: width > 500 ? 900 : 844 } });
    page.on('pageerror', (e) => errors.push(`${tag}: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && errors.push(`${tag}: ${m.text()}`));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${tag}: ${r.status()} ${r.url()}`));
    if (mock)
      await page.route('**/api/blade-flow/**', (route) => {
        const u = new URL(route.request().url());
        const key = u.pathname.split('/').slice(-2).join('/');
        return route.fulfill({ json: { code: 200, success: true, msg: 'ok', data: fixtures[key] ?? true } });
      });
    await login(page, lang);
    const shot = (name: string) => page.screenshot({ path: `${out}/${tag}-${name}.png` });

    await open(page, '/flow/model/index');
    await page.waitForSelector('[data-testid=flow-model-page] .ant-table-row', { timeout: 30_000 }).catch(() => {});
    await shot('model');
    const edit = page.locator('[data-testid=flow-model-page] .ant-table-row').first().getByRole('button').nth(1);
    if (await edit.count()) {
      await edit.click();
      await page.waitForSelector('.atrium-flow-modeler .djs-element', { timeout: 60_000 }).catch(() => {});
      await page.waitForTimeout(800);
      await shot('model-edit');
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }
    const deploy = page.locator('[data-testid=flow-model-page] .ant-table-row').first().getByRole('button').nth(2);
    if (await deploy.count()) {
      await deploy.click();
      await page.waitForTimeout(800);
      await shot('model-deploy');
      await page.keyboard.press('Escape');
      await page.waitForTimeout(500);
    }

    await open(page, '/flow/deploy/index');
    await page.waitForSelector('[data-testid=flow-deploy-page] .ant-table-row', { timeout: 30_000 }).catch(() => {});
    await shot('deploy');
    await page
      .locator('[data-testid=flow-deploy-page] .ant-space .ant-btn')
      .filter({ hasText: /上传|Upload/ })
      .click();
    await page.waitForTimeout(800);
    await shot('deploy-upload');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(500);

    await open(page, '/flow/follow/index');
    await page.waitForSelector('[data-testid=flow-follow-page] .ant-table-row', { timeout: 30_000 }).catch(() => {});
    await shot('follow');
    const view = page.locator('[data-testid=flow-follow-page] .ant-table-row').first().getByRole('button').first();
    if (await view.count()) {
      await view.click();
      await page.waitForSelector('.atrium-flow-viewer .djs-element', { timeout: 60_000 }).catch(() => {});
      await page.waitForTimeout(800);
      await shot('follow-view');
    }
    await page.close();
  }
}
await browser.close();
console.log(errors.length ? `errors:\n${errors.join('\n')}` : 'no errors');
