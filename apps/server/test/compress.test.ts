// Issue 9 §1 (bytes on the wire): API answers above 1 kB are compressed for a client that accepts it
// (docs/server.md "Compressed answers").
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, loginToken, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await loginToken(t)).access;
});
afterAll(async () => t?.close());

const get = (url: string, encoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...bearer(token), ...(encoding ? { 'accept-encoding': encoding } : {}) },
  });

describe('compressed API answers', () => {
  it('brotli when accepted, gzip when only gzip is, the same JSON either way; none when not asked', async () => {
    const plain = await get('/api/blade-system/menu/buttons');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get('/api/blade-system/menu/buttons', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const gz = await get('/api/blade-system/menu/buttons', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it('small answers and errors under 1 kB go as they are', async () => {
    const small = await get('/api/blade-system/tenant/info?domain=x', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().success).toBe(true);
  });
});
