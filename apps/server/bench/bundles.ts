// Bytes on the wire, as Chromium counts them (CDP Network.loadingFinished encodedDataLength: headers and the body as
// sent, compressed or not): the console built the way `npm start` builds it (precompressed .br / .gz beside each
// file), served by the real start-up; Chromium opens /login, then logs in through the form and lands on the home
// page. Alone: `BENCH_ONLY=wire npm run bench`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type CDPSession } from 'playwright-core';
import { fillLoginForm, spawnNode, stop, waitFor } from './lib.ts';

const PORT = '8093';
/** docs/web.md "Bundle budget". */
export const WIRE_BUDGET_KB = { login: 230, toHome: 450 };

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

export async function measureWire(serverDir: string) {
  const root = path.resolve(serverDir, '../..');
  await build(root);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-wire-'));
  const captchaFile = path.join(dir, 'captchas.txt');
  // The production start-up plus the hook that lets the bench read the captcha off the image (as a person would).
  const server = spawnNode(
    ['test/captcha-file-server.ts'],
    { PORT, ATRIUM_DATA_DIR: dir, LOG_LEVEL: 'warn', ATRIUM_E2E_CAPTCHA_FILE: captchaFile },
    serverDir,
  );
  const base = `http://localhost:${PORT}`;
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  try {
    await waitFor(`${base}/api/blade-system/tenant/info?domain=x`, 120_000);
    // Inside the try: a missing Chromium must not leave the server running once the bench exits.
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
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
    return {
      loginPage: summary(login),
      shellAndHome: summary(shell),
      toHome: summary(all),
      encodings: [...new Set(all.filter((a) => a.type === 'script').map((a) => a.encoding))],
      budgetKb: WIRE_BUDGET_KB,
      scripts,
      api,
    };
  } finally {
    await browser?.close();
    await stop(server);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
