import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loggerOptions } from '../src/platform/logging.ts';
import { md5Hex } from '../src/platform/password.ts';
import { ADMIN_PASSWORD, BASIC, createTestApp, login, type TestApp } from './harness.ts';

/**
 * A log scan: every line the server writes at debug level during sign-in, refresh and a failing query is collected,
 * and no credential may appear in it — the password hash, the refresh token, the captcha code, a failed query's
 * parameters.
 */
const lines: string[] = [];
const SECRET = 'scrypt$do-not-log-me$0123456789abcdef';
let t: TestApp;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = { ...(loggerOptions('debug') as object), stream };
  t = await createTestApp(
    {},
    (app) =>
      app.get('/probe/fail', { config: { auth: 'none' } }, async () => {
        await t.services.db.execute(sql`select ${SECRET}::int as n`);
        return 'unreachable';
      }),
    { logger },
  );
});
afterAll(async () => t?.close());

describe('nothing secret in a log', () => {
  it('sign-in, refresh and a failed query leave no credential in any line', async () => {
    const captcha = await (async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
      const { key } = res.json() as { key: string };
      return { key, code: t.captchas.get(key)! };
    })();
    const res = await login(t, { captcha });
    expect(res.statusCode).toBe(200);
    const refresh = res.json().refresh_token as string;
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?grant_type=refresh_token&refresh_token=${refresh}&scope=all`,
      headers: { authorization: BASIC, 'tenant-id': '000000' },
    });
    expect(again.statusCode).toBe(200);
    const failed = await t.app.inject({ method: 'GET', url: '/probe/fail' });
    expect(failed.statusCode).toBe(500);
    expect(failed.body).not.toContain(SECRET);

    const all = lines.join('');
    expect(all).toContain('/api/blade-auth/oauth/token'); // the calls were logged…
    expect(all).toContain('unhandled error');
    for (const secret of [md5Hex(ADMIN_PASSWORD), refresh, captcha.code, SECRET]) {
      expect([secret.slice(0, 8), all.includes(secret)]).toEqual([secret.slice(0, 8), false]); // …their secrets not
    }
  });
});
