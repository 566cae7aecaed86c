// Gzipped JS a browser really loads: Chromium opens /login, then logs in and lands on the home page;
// every JS response is counted by the gzip size of its file in apps/web/dist.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { spawnNode, stop, waitFor } from './lib.ts';

export async function measureBundles(serverDir: string) {
  const dist = path.resolve(serverDir, '../web/dist');
  if (!fs.existsSync(path.join(dist, 'index.html')))
    return { skipped: 'apps/web/dist missing: run npm run build first' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-web-'));
  const captchaFile = path.join(dir, 'captchas.txt');
  const server = spawnNode(
    ['test/captcha-file-server.ts'],
    { PORT: '8096', ATRIUM_DATA_DIR: dir, LOG_LEVEL: 'warn', ATRIUM_E2E_CAPTCHA_FILE: captchaFile },
    serverDir,
  );
  const base = 'http://localhost:8096';
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  try {
    await waitFor(`${base}/api/blade-system/tenant/info?domain=x`, 120_000);
    // Inside the try: a missing Chromium must not leave the server running once the bench exits.
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const page = await browser.newPage();
    const seen = new Set<string>();
    page.on('response', (r) => {
      const u = new URL(r.url());
      if (u.pathname.endsWith('.js')) seen.add(u.pathname);
    });
    const gz = (files: Iterable<string>) =>
      Math.round(
        [...files].reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dist, f))).length, 0) / 102.4,
      ) / 10;
    await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
    const loginKb = gz(seen);
    const loginFiles = seen.size;
    const key = (await page.locator('img[data-captcha-key]').getAttribute('data-captcha-key'))!;
    const code =
      fs
        .readFileSync(captchaFile, 'utf8')
        .split('\n')
        .find((l) => l.startsWith(key))
        ?.split(' ')[1] ?? '';
    const inputs = page.locator('input');
    const n = await inputs.count();
    const byPlaceholder = async (re: RegExp, value: string) => {
      for (let i = 0; i < n; i++) {
        const ph = (await inputs.nth(i).getAttribute('placeholder')) ?? '';
        if (re.test(ph)) {
          await inputs.nth(i).fill(value);
          return;
        }
      }
    };
    await byPlaceholder(/用户名|账号|user/i, 'admin');
    await byPlaceholder(/密码|password/i, 'admin');
    await byPlaceholder(/验证码|captcha/i, code);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/wel\/index/, { timeout: 30_000 });
    // The shell and the home page are lazy chunks: wait until they have rendered, then until the network is quiet.
    await page.getByTestId('sidebar').waitFor();
    await page.getByText('快捷入口').waitFor();
    await page.waitForLoadState('networkidle');
    return { loginPageKb: loginKb, loginPageFiles: loginFiles, shellAndHomeKb: gz(seen), shellAndHomeFiles: seen.size };
  } finally {
    await browser?.close();
    await stop(server);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
