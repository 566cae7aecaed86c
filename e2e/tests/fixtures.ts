import { test as base, expect } from '@playwright/test';
import { redactUrl } from '../../apps/server/src/platform/logging.ts';

/**
 * The specs' `test`: Playwright's, with a record of what the browser did kept per test. When a test fails, the record
 * is printed with the test's output, so a failure on a CI machine says which API calls were made, what they answered
 * and how long they took, which one never answered, what the page logged and what it showed at the end. A passing
 * test prints nothing.
 */
export const test = base.extend({
  context: async ({ context }, use, testInfo) => {
    const started = Date.now();
    const at = () => `${((Date.now() - started) / 1000).toFixed(2)}s`;
    const lines: string[] = [];
    const sent = new Map<object, number>();
    const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
    // The token endpoint carries the password's digest and refresh tokens in its query: masked as the server's logs
    // mask them.
    const call = (r: { method(): string; url(): string }) => {
      const u = new URL(r.url());
      const path = redactUrl(u.pathname + u.search);
      return `${r.method()} ${path.length > 160 ? `${path.slice(0, 160)}…` : path}`;
    };
    context.on('request', (r) => {
      if (!isApi(r.url())) return;
      sent.set(r, Date.now());
      lines.push(`${at()} → ${call(r)}`);
    });
    context.on('requestfinished', (r) => {
      if (!sent.has(r)) return;
      const took = Date.now() - sent.get(r)!;
      sent.delete(r);
      void r
        .response()
        .then((res) => lines.push(`${at()} ← ${res?.status() ?? '?'} ${call(r)} (${took} ms)`))
        .catch(() => undefined);
    });
    context.on('requestfailed', (r) => {
      if (!sent.has(r)) return;
      sent.delete(r);
      lines.push(`${at()} ✗ ${call(r)}: ${r.failure()?.errorText ?? 'failed'}`);
    });
    context.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') lines.push(`${at()} console.${m.type()}: ${m.text()}`);
    });
    context.on('weberror', (e) => lines.push(`${at()} page error: ${e.error().message}`));
    await use(context);
    if (testInfo.status === testInfo.expectedStatus) return;
    for (const r of sent.keys())
      lines.push(`${at()} still waiting for ${call(r as { method(): string; url(): string })}`);
    const shown: string[] = [];
    for (const page of context.pages()) {
      // What the user saw at the end: messages, notifications, open dialogs and their buttons.
      const texts = await page
        .locator('.ant-message-notice, .ant-notification-notice, .ant-modal-wrap:visible')
        .allInnerTexts()
        .catch(() => []);
      shown.push(`${page.url()}: ${texts.map((t) => t.replace(/\s+/g, ' ').trim()).join(' | ') || '(none)'}`);
    }
    // Printed, not attached: the list reporter prints an attachment's first 300 characters only.
    console.log(
      [`— what the browser did (${testInfo.title}) —`, ...lines.slice(-80), '— shown at the end —', ...shown].join(
        '\n',
      ),
    );
  },
});

export { expect };
