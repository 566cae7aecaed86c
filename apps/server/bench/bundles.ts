// Bytes on the wire, as Chromium counts them (CDP Network.loadingFinished encodedDataLength: headers and the body as
// sent, compressed or not): the console built the way `npm start` builds it (precompressed .br / .gz beside each
// file), served by the real start-up; Chromium opens /login, then logs in through the form and lands on the home
// page. Then the workflow screens, each journey in a fresh browser context (empty cache) after its own login: 流程跟踪
// and an instance's diagram (the viewer), 模型管理 and its modeler drawer (新增), 模型管理 and a model's 查看.
// Alone: `BENCH_ONLY=wire npm run bench` (BENCH_WIRE_PORT moves it off port 8093).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { flowApi } from '@atrium/contract';
import { user as userDef } from '@atrium/contract/resources/system/user';
import { leaveBpmn, leaveProcessSeed } from '../src/db/seed-data/leave.ts';
import { BASIC, captchaLogin, fillLoginForm, spawnNode, stop, waitFor } from './lib.ts';

const PORT = process.env.BENCH_WIRE_PORT ?? '8093';
/**
 * docs/web.md "Bundle budget": /login, /login → home, and what the workflow diagrams add when they are first drawn
 * (the viewer: 流程跟踪's diagram, the leave detail, a model's 查看; the modeler drawer of 模型管理). Over one of
 * them, the bench fails.
 */
export const WIRE_BUDGET_KB = { login: 230, toHome: 450, viewer: 75, modeler: 400 };

type Answer = { url: string; type: string; status: number; encoding: string; bytes: number };

const kb = (n: number) => Math.round(n / 102.4) / 10;

function summary(answers: Answer[]) {
  const byType: Record<string, number> = {};
  for (const a of answers) byType[a.type] = (byType[a.type] ?? 0) + a.bytes;
  return {
    kB: kb(answers.reduce((n, a) => n + a.bytes, 0)),
    requests: answers.length,
    byTypeKb: Object.fromEntries(Object.entries(byType).map(([t, n]) => [t, kb(n)])),
  };
}

/** Builds what changed, exactly as `npm start` does (scripts/start.mjs --build-only). */
function build(root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), '--build-only'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build exited with ${code}`))));
  });
}

/** Records every http(s) answer Chromium receives, with its bytes on the wire. */
async function recorder(cdp: CDPSession) {
  const pending = new Map<string, Omit<Answer, 'bytes'>>();
  let done: Answer[] = [];
  // Requests sent and not yet finished or failed: the network is quiet when none is left for a while.
  const inFlight = new Set<string>();
  let lastChange = performance.now();
  const settle = (id: string) => {
    if (inFlight.delete(id)) lastChange = performance.now();
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!/^https?:/.test(e.request.url)) return;
    inFlight.add(e.requestId);
    lastChange = performance.now();
  });
  cdp.on('Network.loadingFailed', (e) => settle(e.requestId));
  cdp.on('Network.responseReceived', (e) => {
    if (!/^https?:/.test(e.response.url)) return;
    const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    pending.set(e.requestId, {
      url: new URL(e.response.url).pathname,
      type: e.type.toLowerCase(),
      status: e.response.status,
      encoding: h['content-encoding'] ?? 'identity',
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const a = pending.get(e.requestId);
    if (!a) return;
    pending.delete(e.requestId);
    done.push({ ...a, bytes: e.encodedDataLength });
  });
  cdp.on('Network.loadingFinished', (e) => settle(e.requestId));
  await cdp.send('Network.enable');
  return {
    /**
     * Resolves once no request has been in flight for `quietMs` (a client-side navigation never fires a load event, so
     * Playwright's `networkidle` after one does not wait for the requests it starts).
     */
    async quiet(quietMs = 500, timeoutMs = 30_000) {
      const until = performance.now() + timeoutMs;
      while (inFlight.size || performance.now() - lastChange < quietMs) {
        if (performance.now() > until) throw new Error(`the network did not go quiet: ${inFlight.size} in flight`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    /** The answers finished since the last take. */
    take() {
      const out = done;
      done = [];
      return out;
    },
  };
}

/** A signed-in console in a fresh browser context: what /login and the shell with the home page cost. */
async function signIn(browser: Browser, base: string, captchaFile: string) {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1366, height: 820 } });
  const page = await context.newPage();
  const rec = await recorder(await context.newCDPSession(page));

  await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
  const key = (await page.locator('img[data-captcha-key]').getAttribute('data-captcha-key'))!;
  const login = rec.take();

  const code =
    fs
      .readFileSync(captchaFile, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${key} `))
      ?.split(' ')[1] ?? '';
  await fillLoginForm(page, 'admin', 'admin', code);
  // The shell and the home page are lazy chunks: wait until they have rendered, then until the network is quiet.
  await page.getByTestId('sidebar').waitFor();
  await page.getByText('快捷入口').waitFor();
  await rec.quiet();
  const shell = rec.take();
  /** What one step of a journey fetched, from its first action until the network is quiet. */
  const step = async (act: () => Promise<void>) => {
    await act();
    await rec.quiet();
    return rec.take();
  };
  return { context, page, login, shell, step };
}

/** Opens a screen inside the running console, as a link would (the router follows the history entry on popstate). */
async function spaGo(page: Page, to: string, testId: string) {
  await page.evaluate((p) => {
    window.history.pushState(null, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await page.getByTestId(testId).waitFor();
}

/** As the API is called with the administrator's token (not through Chromium, so it is not counted). */
async function apiCall(base: string, token: string, route: { path: string }, init: { query?: string; body?: unknown }) {
  const res = await fetch(`${base}${route.path}${init.query ? `?${init.query}` : ''}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: BASIC,
      'blade-auth': `bearer ${token}`,
      'tenant-id': '000000',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await res.json()) as { success?: boolean; data?: unknown; msg?: string };
  if (!res.ok || !body.success) throw new Error(`${route.path}: ${res.status} ${body.msg}`);
  return body.data;
}

/** A running leave instance (for 流程跟踪's diagram) and a model (for 模型管理's 查看), made through the API. */
async function flowData(base: string, captchaFile: string) {
  const token = await captchaLogin(base, captchaFile);
  const defs = (await apiCall(base, token, flowApi.startList, { query: 'size=100' })) as {
    records: { id: string; key: string }[];
  };
  const def = defs.records.find((d) => d.key === leaveProcessSeed.key);
  if (!def) throw new Error('the seeded leave process is not deployed');
  // The approver is another user (nobody approves their own request).
  await apiCall(
    base,
    token,
    { path: `${userDef.base}/submit` },
    {
      body: { account: 'bench_approver', realName: 'bench', password: 'Bench#2026xx' },
    },
  );
  const users = (await apiCall(base, token, flowApi.userOptions, { query: 'name=bench_approver' })) as { id: string }[];
  await apiCall(base, token, flowApi.leaveStart, {
    body: {
      processDefinitionId: def.id,
      category: leaveProcessSeed.category,
      startTime: '2026-12-01 09:00:00',
      endTime: '2026-12-02 18:00:00',
      reason: 'bench',
      taskUser: users[0].id,
    },
  });
  await apiCall(base, token, flowApi.modelSubmit, {
    body: { modelKey: 'bench_leave', name: 'bench', category: leaveProcessSeed.category, xml: leaveBpmn },
  });
}

/** Whether any of the scripts holds diagram-js (its canvas class, `djs-container`): read from the build itself. */
function holdsBpmn(webDist: string, answers: Answer[]): string[] {
  return answers
    .filter((a) => a.type === 'script' && a.url.startsWith('/assets/'))
    .map((a) => a.url.replace('/assets/', ''))
    .filter((f) => fs.readFileSync(path.join(webDist, 'assets', f), 'utf8').includes('djs-container'));
}

const files = (answers: Answer[]) =>
  answers
    .filter((a) => a.type !== 'xhr' && a.type !== 'fetch')
    .sort((a, b) => b.bytes - a.bytes)
    .map((a) => ({ file: a.url.replace('/assets/', ''), type: a.type, kB: kb(a.bytes), encoding: a.encoding }));

/** 流程跟踪, then the first instance's diagram (the viewer, as the leave detail draws it too). */
async function viewerJourney(browser: Browser, base: string, captchaFile: string) {
  const s = await signIn(browser, base, captchaFile);
  const screen = await s.step(() => spaGo(s.page, '/flow/follow/index', 'flow-follow-page'));
  const viewer = await s.step(async () => {
    await s.page
      .getByTestId('flow-follow-page')
      .getByRole('button', { name: /查\s*看/ })
      .first()
      .click();
    await s.page.locator('.atrium-flow-viewer .djs-container svg').first().waitFor();
  });
  await s.context.close();
  return { s, screen, viewer };
}

/** 模型管理, then 新增 (the modeler drawer) or a model's 查看 (read-only: the viewer). */
async function modelJourney(browser: Browser, base: string, captchaFile: string, open: 'add' | 'view') {
  const s = await signIn(browser, base, captchaFile);
  const screen = await s.step(() => spaGo(s.page, '/flow/model/index', 'flow-model-page'));
  const drawer = await s.step(async () => {
    const page = s.page.getByTestId('flow-model-page');
    if (open === 'add') {
      await page
        .getByRole('button', { name: /新\s*增/ })
        .first()
        .click();
      await s.page.locator('.djs-palette').first().waitFor();
      await s.page.locator('.bio-properties-panel').first().waitFor();
    } else {
      await page
        .getByRole('button', { name: /查\s*看/ })
        .first()
        .click();
      await s.page.locator('.atrium-flow-viewer .djs-container svg').first().waitFor();
    }
  });
  await s.context.close();
  return { screen, drawer };
}

export async function measureWire(serverDir: string) {
  const root = path.resolve(serverDir, '../..');
  await build(root);
  const webDist = path.resolve(serverDir, process.env.ATRIUM_WEB_DIST || '../web/dist');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-wire-'));
  const captchaFile = path.join(dir, 'captchas.txt');
  // The production start-up plus the hook that lets the bench read the captcha off the image (as a person would).
  const server = spawnNode(
    ['test/captcha-file-server.ts'],
    { PORT, ATRIUM_DATA_DIR: dir, LOG_LEVEL: 'warn', ATRIUM_E2E_CAPTCHA_FILE: captchaFile },
    serverDir,
  );
  const base = `http://localhost:${PORT}`;
  let browser: Browser | undefined;
  try {
    await waitFor(`${base}/api/blade-system/tenant/info?domain=x`, 120_000);
    await flowData(base, captchaFile);
    // Inside the try: a missing Chromium must not leave the server running once the bench exits.
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const v = await viewerJourney(browser, base, captchaFile);
    const add = await modelJourney(browser, base, captchaFile, 'add');
    const view = await modelJourney(browser, base, captchaFile, 'view');
    const { login, shell } = v.s;

    const scripts = [...login, ...shell]
      .filter((a) => a.type === 'script')
      .sort((a, b) => b.bytes - a.bytes)
      .map((a) => ({
        file: a.url.replace('/assets/', ''),
        kB: kb(a.bytes),
        encoding: a.encoding,
        atLogin: login.includes(a),
      }));
    const all = [...login, ...shell];
    const api = all
      .filter((a) => a.type === 'xhr' || a.type === 'fetch')
      .sort((a, b) => b.bytes - a.bytes)
      .map((a) => ({ path: a.url, kB: kb(a.bytes), encoding: a.encoding, atLogin: login.includes(a) }));
    const figures = {
      login: kb(login.reduce((n, a) => n + a.bytes, 0)),
      toHome: kb(all.reduce((n, a) => n + a.bytes, 0)),
      viewer: summary(v.viewer).kB,
      modeler: summary(add.drawer).kB,
    };
    const overBudget = (Object.keys(WIRE_BUDGET_KB) as (keyof typeof WIRE_BUDGET_KB)[])
      .filter((k) => figures[k] > WIRE_BUDGET_KB[k])
      .map((k) => `${k}: ${figures[k]} kB > ${WIRE_BUDGET_KB[k]} kB`);
    // A model's 查看 draws the viewer alone, not the modeler.
    const modelView = summary(view.drawer).kB;
    if (modelView > WIRE_BUDGET_KB.viewer)
      overBudget.push(`a model's 查看: ${modelView} kB > ${WIRE_BUDGET_KB.viewer} kB`);
    // The diagrams must stay out of /login, the shell and the home page (docs/web.md "Bundle budget").
    const bpmnAtHome = holdsBpmn(webDist, all);
    if (bpmnAtHome.length) overBudget.push(`diagram-js fetched before any diagram: ${bpmnAtHome.join(', ')}`);
    return {
      loginPage: summary(login),
      shellAndHome: summary(shell),
      toHome: summary(all),
      encodings: [...new Set(all.filter((a) => a.type === 'script').map((a) => a.encoding))],
      budgetKb: WIRE_BUDGET_KB,
      overBudget,
      scripts,
      api,
      flow: {
        followScreen: summary(v.screen),
        viewer: { ...summary(v.viewer), files: files(v.viewer), bpmnIn: holdsBpmn(webDist, v.viewer) },
        modelScreen: summary(add.screen),
        modeler: { ...summary(add.drawer), files: files(add.drawer), bpmnIn: holdsBpmn(webDist, add.drawer) },
        modelView: { ...summary(view.drawer), files: files(view.drawer) },
      },
    };
  } finally {
    await browser?.close();
    await stop(server);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
