// Issue 9 §2 (load bench): password hashes share libuv's thread pool with the HMAC of every access token. A burst of
// hashes must leave a thread free (a token is still checked at once) and, beyond a few seconds of work in line, be
// refused with a 503 instead of waiting until the client gives up (docs/server.md "Under load").
import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/platform/errors.ts';
import { hashPassword, md5Hex, verifyPassword } from '../src/platform/password.ts';

async function hmacMs(): Promise<number> {
  const key = await webcrypto.subtle.importKey('raw', new Uint8Array(32), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const t0 = performance.now();
  await webcrypto.subtle.sign('HMAC', key, new TextEncoder().encode('token'));
  return performance.now() - t0;
}

describe('the line of password hashes', () => {
  it('a burst of hashes: tokens are still signed at once, the excess is refused with 503, the rest are right', async () => {
    const burst = Array.from({ length: 80 }, (_, i) => hashPassword(md5Hex(`burst-${i}`)));
    const settled = Promise.allSettled(burst);
    await new Promise((r) => setTimeout(r, 50));
    expect(await hmacMs()).toBeLessThan(100);
    const results = await settled;
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect((r.reason as AppError).status).toBe(503);
    }
    const done = results.flatMap((r, i) => (r.status === 'fulfilled' ? [{ i, hash: r.value }] : []));
    expect(done.length).toBeGreaterThan(0);
    const { i, hash } = done[done.length - 1];
    expect(await verifyPassword(md5Hex(`burst-${i}`), hash)).toEqual({ ok: true, needsRehash: false });
    // Once the line is gone, hashing works again.
    expect(await hashPassword(md5Hex('after'))).toMatch(/^scrypt\$/);
  }, 60_000);
});
