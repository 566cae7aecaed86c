import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let webDir: string;
beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'atrium-web-'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Atrium</title><div id="root"></div>');
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1)');
  t = await createTestApp({ webDist: webDir }, (app) => {
    app.get('/api/test/boom', { config: { auth: 'none' } }, async () => {
      throw new Error('secret detail: SELECT * FROM user');
    });
  });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

describe('platform', () => {
  it('answers an unexpected error with 500, a request id and no detail', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/test/boom',
      headers: { 'x-request-id': 'req-12345678' },
    });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toMatchObject({ code: 500, success: false });
    expect(body.msg).toContain('req-12345678');
    expect(JSON.stringify(body)).not.toMatch(/secret detail|SELECT|at /);
  });

  it('answers bad JSON with a 400 envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-user/register-guest',
      headers: { 'content-type': 'application/json' },
      payload: '{"tenantId":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, success: false, msg: '请求体不是合法的 JSON' });
  });

  it('serves the console for non-/api paths (SPA fallback) and its assets', async () => {
    for (const url of ['/', '/login', '/wel/index', '/system/user/index?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
    const js = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(js.body).toBe('console.log(1)');
    expect((await t.app.inject({ method: 'GET', url: '/assets/gone-123.js' })).statusCode).toBe(404);
  });

  it('never falls back to the console for /api paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, success: false, msg: '接口不存在' });
  });
});
