import http from 'node:http';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BASIC, bearer, createTestApp, login, loginToken, newCaptcha, type TestApp } from './harness.ts';
import { tenant, user } from '../src/db/schema/index.ts';
import { newId } from '../src/db/ids.ts';
import { hashPassword, md5Hex } from '../src/platform/password.ts';
import { SECURITY_HEADERS } from '../src/app.ts';

/** What every API answer carries (docs/server.md "Security headers"). */
const API_ONLY: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const now = new Date();
  await t.services.db.insert(tenant).values([
    { id: newId(), tenantId: '100001', tenantName: '过期租户', expireTime: new Date(now.getTime() - 86400_000) },
    { id: newId(), tenantId: '100002', tenantName: '正常租户' },
  ]);
  await t.services.db.insert(user).values({
    id: newId(),
    tenantId: '100002',
    account: 'alice',
    password: await hashPassword(md5Hex('Alice#2026')),
    realName: 'Alice',
  });
});
afterAll(async () => t?.close());

describe('captcha', () => {
  it('answers a key and an SVG image, never the code, and that logins require it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(body.required).toBe(true);
    expect(JSON.stringify(body)).not.toContain(t.captchas.get(body.key));
  });

  it('logs in with the right captcha and refuses a wrong one', async () => {
    expect((await login(t)).statusCode).toBe(200);
    const c = await newCaptcha(t);
    const res = await login(t, { captcha: { key: c.key, code: c.code === 'zzzz' ? 'yyyy' : 'zzzz' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_description: '验证码不正确' });
  });

  it('is single use: the same captcha a second time is refused', async () => {
    const c = await newCaptcha(t);
    expect((await login(t, { captcha: c })).statusCode).toBe(200);
    const again = await login(t, { captcha: c });
    expect(again.json().error_description).toBe('验证码不正确');
  });

  it('expires after five minutes', async () => {
    const c = await newCaptcha(t);
    t.clock.offsetMs = 5 * 60_000 + 1000;
    try {
      const res = await login(t, { captcha: c });
      expect(res.json().error_description).toBe('验证码不正确');
    } finally {
      t.clock.offsetMs = 0;
    }
  });

  it('refuses the password grant while the captcha is required', async () => {
    const res = await login(t, { captcha: null });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe('当前必须使用验证码登录');
  });

  it('ATRIUM_CAPTCHA=off: the captcha call says it is not required, and the password grant signs in', async () => {
    const off = await createTestApp({ captchaRequired: false });
    try {
      const res = await off.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ required: false, key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const signed = await login(off, { captcha: null });
      expect(signed.statusCode).toBe(200);
      expect(signed.json().access_token).toBeTruthy();
      // A captcha, when one is sent, is still checked.
      const wrong = await login(off, { captcha: { key: res.json().key, code: 'zzzzz' } });
      expect(wrong.json().error_description).toBe('验证码不正确');
    } finally {
      await off.close();
    }
  });
});

describe('credentials and tenants', () => {
  it('answers the same for an unknown user and a wrong password', async () => {
    const wrong = await login(t, { password: 'not-the-password' });
    const unknown = await login(t, { username: 'nobody-here' });
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error_description).toBe('用户名或密码错误');
  });

  it('answers in English when asked', async () => {
    const c = await newCaptcha(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5Hex('x')}&grant_type=captcha`,
      headers: {
        authorization: BASIC,
        'tenant-id': '000000',
        'captcha-key': c.key,
        'captcha-code': c.code,
        'accept-language': 'en-US,en;q=0.9',
      },
    });
    expect(res.json().error_description).toBe('Wrong user name or password');
  });

  it('refuses an unknown tenant and an expired one', async () => {
    expect((await login(t, { tenantId: '999999' })).json().error_description).toBe('租户不存在');
    expect((await login(t, { tenantId: '100001' })).json().error_description).toBe('租户已过期');
  });

  it('keeps tenants apart: a user of one tenant cannot log in to another', async () => {
    expect((await login(t, { tenantId: '100002', username: 'alice', password: 'Alice#2026' })).statusCode).toBe(200);
    expect(
      (await login(t, { tenantId: '000000', username: 'alice', password: 'Alice#2026' })).json().error_description,
    ).toBe('用户名或密码错误');
  });

  it('returns the token shape of the contract', async () => {
    const { body } = await loginToken(t);
    expect(body).toMatchObject({
      token_type: 'bearer',
      tenant_id: '000000',
      user_name: 'admin',
      account: 'admin',
      role_name: 'administrator',
      client_id: 'saber',
      scope: 'all',
    });
    expect(typeof body.user_id).toBe('string');
    expect(body.expires_in).toBeGreaterThan(0);
    expect(JSON.stringify(body)).not.toMatch(/scrypt/);
  });
});

describe('client check', () => {
  it('refuses a missing, malformed or wrong client with 401', async () => {
    for (const authorization of [
      undefined,
      'Basic',
      'Bearer x',
      `Basic ${Buffer.from('saber:wrong').toString('base64')}`,
      `Basic ${Buffer.from('nobody:x').toString('base64')}`,
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/blade-auth/oauth/token?grant_type=password&username=admin&password=x',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error_description).toBe('客户端认证失败');
    }
  });

  it('answers the social grant with a clear 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token?grant_type=social&source=github&code=x&state=y',
      headers: { authorization: BASIC },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe('未配置第三方登录');
  });
});

describe('lockout', () => {
  it('locks after 5 failures in 10 minutes, even the right password, and ends after the window', async () => {
    for (let i = 0; i < 5; i++)
      expect((await login(t, { tenantId: '100002', username: 'alice', password: 'bad' })).statusCode).toBe(400);
    const locked = await login(t, { tenantId: '100002', username: 'alice', password: 'Alice#2026' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error_description).toMatch(/^账号已被锁定/);
    // Another tenant's admin is not affected.
    expect((await login(t)).statusCode).toBe(200);
    t.clock.offsetMs = 10 * 60_000 + 1000;
    try {
      expect((await login(t, { tenantId: '100002', username: 'alice', password: 'Alice#2026' })).statusCode).toBe(200);
    } finally {
      t.clock.offsetMs = 0;
    }
  });
});

describe('refresh and logout', () => {
  const refresh = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?grant_type=refresh_token&scope=all&refresh_token=${encodeURIComponent(token)}`,
      headers: { authorization: BASIC },
    });

  it('rotates: the new refresh token works, the old one is refused', async () => {
    const first = await loginToken(t);
    const r1 = await refresh(first.refresh);
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(second.refresh_token).not.toBe(first.refresh);
    expect((await refresh(first.refresh)).statusCode).toBe(401);
    expect((await refresh(second.refresh_token)).statusCode).toBe(200);
  });

  it('refuses the access token and the refresh token after logout', async () => {
    const s = await loginToken(t);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/user-info', headers: bearer(s.access) }))
        .statusCode,
    ).toBe(200);
    const out = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/logout', headers: bearer(s.access) });
    expect(out.json()).toMatchObject({ code: 200, success: true, data: true });
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/blade-auth/oauth/user-info',
      headers: bearer(s.access),
    });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 401, success: false, msg: '请求未授权' });
    expect((await refresh(s.refresh)).statusCode).toBe(401);
  });

  it('refuses an expired access token', async () => {
    const s = await loginToken(t);
    t.clock.offsetMs = 2 * 3600_000;
    try {
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/user-info', headers: bearer(s.access) }))
          .statusCode,
      ).toBe(401);
    } finally {
      t.clock.offsetMs = 0;
    }
  });
});

describe('headers', () => {
  it('answers 401 in the envelope for a missing, malformed or forged token', async () => {
    const forged = (await loginToken(t)).access.replace(/\.[^.]+$/, '.AAAA');
    for (const h of [
      {},
      { 'blade-auth': 'bearer' },
      { 'blade-auth': 'token abc' },
      { 'blade-auth': 'bearer not.a.jwt' },
      { 'blade-auth': `bearer ${forged}` },
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/blade-system/menu/routes', headers: h });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 401, success: false, data: null, msg: '请求未授权' });
    }
  });

  it('answers an unknown /api path with a 404 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, success: false });
  });

  it("sets security headers and a request id: the API set on API answers, a subresource set on scripts and styles, helmet's on the rest", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // Helmet's headers as its own middleware sets them on a real Node answer (the server works them out once).
    const server = http.createServer((req, out) => helmet(SECURITY_HEADERS)(req, out, () => out.end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    let helmets: Record<string, string>;
    try {
      const { port } = server.address() as { port: number };
      const direct = await fetch(`http://127.0.0.1:${port}/`);
      helmets = Object.fromEntries(
        [...direct.headers].filter(
          ([k]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k),
        ),
      );
    } finally {
      server.close();
    }
    expect(Object.keys(helmets).length).toBeGreaterThan(8);
    expect(helmets['content-security-policy']).toContain("script-src 'self'");
    const pageOnly = Object.keys(helmets).filter((k) => !(k in API_ONLY));
    // API answers — public, authenticated, refused, unknown: data headers, nothing a page needs, never cached.
    const api = [
      res,
      await t.app.inject({
        method: 'GET',
        url: '/api/blade-system/dict/dictionary?code=sex',
        headers: bearer((await loginToken(t)).access),
      }),
      await t.app.inject({ method: 'GET', url: '/api/blade-system/dict/dictionary?code=sex' }),
      await t.app.inject({ method: 'GET', url: '/api/no-such-call' }),
    ];
    expect(api.map((r) => r.statusCode)).toEqual([200, 200, 401, 404]);
    for (const r of api) {
      for (const [k, v] of Object.entries(API_ONLY)) expect([k, r.headers[k]]).toEqual([k, v]);
      expect([r.headers['strict-transport-security']]).toEqual([helmets['strict-transport-security']]);
      for (const k of pageOnly.filter((k) => k !== 'strict-transport-security'))
        expect([k, r.headers[k]]).toEqual([k, undefined]);
    }
    // Everything else (the console's pages and files, found or not): exactly helmet's.
    for (const url of ['/login', '/wel/index', '/favicon.svg', '/assets/logo.svg', '/assets/x.js.html']) {
      const page = await t.app.inject({ method: 'GET', url });
      for (const [k, v] of Object.entries(helmets)) expect([url, k, page.headers[k]]).toEqual([url, k, v]);
      expect([url, page.headers['cache-control']]).not.toEqual([url, 'no-store']);
    }
    // The console's scripts and style sheets, which are never a page: what a subresource uses, none of the page-only
    // headers (docs/server.md "Security headers").
    const subresource = ['x-content-type-options', 'cross-origin-resource-policy', 'referrer-policy'];
    for (const url of ['/assets/missing.js', '/assets/index-x.css', '/assets/Layout-x.js?v=1']) {
      const file = await t.app.inject({ method: 'GET', url });
      for (const k of [...subresource, 'strict-transport-security'])
        expect([url, k, file.headers[k]]).toEqual([url, k, helmets[k]]);
      expect(helmets['x-content-type-options']).toBe('nosniff');
      for (const k of Object.keys(helmets).filter((k) => ![...subresource, 'strict-transport-security'].includes(k)))
        expect([url, k, file.headers[k]]).toEqual([url, k, undefined]);
    }
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/blade-auth/oauth/token');
  });
});

describe('session calls', () => {
  it('user-info, routes, buttons and top-menu answer for the admin', async () => {
    const s = await loginToken(t);
    const info = (
      await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/user-info', headers: bearer(s.access) })
    ).json();
    expect(info.data).toMatchObject({ account: 'admin', tenantId: '000000', roles: ['administrator'] });
    expect(JSON.stringify(info)).not.toMatch(/password|scrypt/);
    const routes = (
      await t.app.inject({ method: 'GET', url: '/api/blade-system/menu/routes', headers: bearer(s.access) })
    ).json();
    expect(routes.data.length).toBeGreaterThan(3);
    expect(JSON.stringify(routes.data)).not.toContain('"category":2');
    const buttons = (
      await t.app.inject({ method: 'GET', url: '/api/blade-system/menu/buttons', headers: bearer(s.access) })
    ).json();
    expect(JSON.stringify(buttons.data)).toContain('"category":2');
    const top = (
      await t.app.inject({ method: 'GET', url: '/api/blade-system/menu/top-menu', headers: bearer(s.access) })
    ).json();
    expect(top.data.length).toBeGreaterThan(0);
    const under = (
      await t.app.inject({
        method: 'GET',
        url: `/api/blade-system/menu/routes?topMenuId=${top.data[0].id}`,
        headers: bearer(s.access),
      })
    ).json();
    expect(under.data.length).toBeGreaterThan(0);
    expect(under.data.length).toBeLessThanOrEqual(routes.data.length);
  });

  it('a user of another tenant cannot read a top menu of the platform by id', async () => {
    const admin = await loginToken(t);
    const top = (
      await t.app.inject({ method: 'GET', url: '/api/blade-system/menu/top-menu', headers: bearer(admin.access) })
    ).json();
    const alice = await loginToken(t, { tenantId: '100002', username: 'alice', password: 'Alice#2026' });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/blade-system/menu/routes?topMenuId=${top.data[0].id}`,
      headers: bearer(alice.access),
    });
    expect(res.statusCode).toBe(404);
  });

  it('rejects a non-numeric topMenuId with a 400', async () => {
    const s = await loginToken(t);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/blade-system/menu/routes?topMenuId=1%20or%201=1',
      headers: bearer(s.access),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  });

  it('tenant info by domain answers null for an unknown host and needs no token', async () => {
    await t.services.db.update(tenant).set({ domain: 'acme.example.com' }).where(eq(tenant.tenantId, '100002'));
    const known = (
      await t.app.inject({ method: 'GET', url: '/api/blade-system/tenant/info?domain=acme.example.com' })
    ).json();
    expect(known.data).toMatchObject({ tenantId: '100002' });
    const unknown = (
      await t.app.inject({ method: 'GET', url: '/api/blade-system/tenant/info?domain=localhost' })
    ).json();
    expect(unknown).toMatchObject({ code: 200, data: null });
  });
});
