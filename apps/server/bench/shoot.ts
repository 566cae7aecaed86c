// Dev aid: screenshots of the console (login, home, a few screens) with Debian's Chromium.
// Usage: BASE=http://localhost:8080 CAPTCHA_FILE=<file> OUT=/tmp/shots npx tsx bench/shoot.ts
import fs from 'node:fs';
import { chromium } from 'playwright-core';

const base = process.env.BASE ?? 'http://localhost:8080';
const out = process.env.OUT ?? '/tmp/shots';
const file = process.env.CAPTCHA_FILE!;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
if (process.env.THEME || process.env.LANG_UI) {
  const put = (k: string, v?: string) =>
    v
      ? `localStorage.setItem('atrium-${k}', JSON.stringify({ dataType: 'string', content: '${v}', type: false, datetime: Date.now() }));`
      : '';
  await page.addInitScript(put('themeName', process.env.THEME) + put('language', process.env.LANG_UI));
}
page.on('console', (m) => {
  if (m.type() === 'error') console.log('console error:', m.text());
});
page.on('pageerror', (e) => console.log('page error:', e.message));
await page.goto(`${base}/login`);
const key = (await page.locator('img[data-captcha-key]').getAttribute('data-captcha-key'))!;
await page.screenshot({ path: `${out}/login.png` });
const code = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .find((l) => l.startsWith(key))!
  .split(' ')[1];
const inputs = page.locator('input');
await inputs.nth(1).fill('admin');
await inputs.nth(2).fill('admin');
await inputs.nth(3).fill(code);
await page.keyboard.press('Enter');
await page.waitForURL(/wel\/index/, { timeout: 15000 });
await page.waitForTimeout(1500);
await page.screenshot({ path: `${out}/home.png` });
for (const p of (process.env.PAGES ?? '/info/index,/system/post/index').split(',')) {
  await page.goto(`${base}${p}`);
  await page.waitForTimeout(1200);
  await page.screenshot({ path: `${out}/${p.replace(/\W+/g, '_')}.png` });
}
await browser.close();
