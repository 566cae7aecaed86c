// The built console as a browser gets it (docs/server.md "Static files"): precompressed .br / .gz chosen by
// Accept-Encoding, Vary, Content-Type of the file itself, a year of caching for hashed assets, revalidation for
// index.html and the SPA fallback, HEAD and ranges, and a 404 (never index.html) for a missing asset.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';

const JS = `export const greeting = ${JSON.stringify('hello '.repeat(200))};\n`;
const HTML = `<!doctype html><html><head><title>Atrium</title></head><body><div id="root"></div>${' '.repeat(300)}</body></html>`;

let t: TestApp;
let webDir: string;
const write = (file: string, text: string, variants = true) => {
  const full = path.join(webDir, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  if (!variants) return;
  fs.writeFileSync(`${full}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${full}.gz`, zlib.gzipSync(text, { level: 9 }));
};

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'atrium-static-'));
  write('index.html', HTML);
  write('assets/index-AbC123.js', JS);
  write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', false);
  t = await createTestApp({ webDist: webDir });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers });

describe('static files', () => {
  it('sends brotli when accepted, before gzip, with the type of the file and Vary', async () => {
    const res = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A script carries the subresource headers, not the page's CSP (docs/server.md "Security headers").
    expect([res.headers['x-content-type-options'], res.headers['content-security-policy']]).toEqual([
      'nosniff',
      undefined,
    ]);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(JS.length / 4);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(JS);
  });

  it('sends gzip when brotli is not accepted, and the file itself when nothing is', async () => {
    const gz = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(JS);

    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(JS);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await get('/assets/index-AbC123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(zlib.brotliCompressSync(JS).length);
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers a range of the representation sent', async () => {
    const res = await get('/assets/index-AbC123.js', { range: 'bytes=0-9' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 0-9/${JS.length}`);
    expect(res.body).toBe(JS.slice(0, 10));
  });

  it('has index.html and the SPA fallback revalidated, compressed like every file', async () => {
    for (const url of ['/index.html', '/login', '/system/user/index?x=1']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers.vary, url).toMatch(/accept-encoding/i);
      expect(zlib.brotliDecompressSync(res.rawPayload).toString(), url).toBe(HTML);
    }
    const head = await get('/wel/index', {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers a missing asset with 404, never the console', async () => {
    for (const url of ['/assets/index-Gone99.js', '/assets/index-Gone99.js.br', '/missing.css']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<div id="root">');
    }
  });

  it('sends a file without variants as it is, cached for an hour', async () => {
    const res = await get('/favicon.svg', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });
});
