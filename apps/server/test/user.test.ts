import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bearer, createTestApp, login, loginToken, type TestApp } from './harness.ts';
import { user } from '../src/db/schema/index.ts';
import { md5Hex } from '../src/platform/password.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const post = (url: string, token: string | null, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload: payload as object });

describe('register-guest', () => {
  it('creates an application that cannot log in until approved', async () => {
    const res = await post('/api/blade-user/register-guest', null, {
      tenantId: '000000',
      name: '访客',
      account: 'guest01',
      password: 'Guest#2026x',
      oauthId: '',
    });
    expect(res.json()).toMatchObject({ code: 200, success: true });
    const denied = await login(t, { username: 'guest01', password: 'Guest#2026x' });
    expect(denied.statusCode).toBe(400);
    expect(denied.json().error_description).toBe('账号尚未通过审核，请等待管理员审批');
    await t.services.db
      .update(user)
      .set({ status: 1 })
      .where(and(eq(user.tenantId, '000000'), eq(user.account, 'guest01')));
    expect((await login(t, { username: 'guest01', password: 'Guest#2026x' })).statusCode).toBe(200);
  });

  it('answers a taken account as a free one, changing nothing; refuses an unknown tenant and a weak password', async () => {
    const before = await t.services.db.select().from(user).where(eq(user.account, 'admin'));
    const taken = await post('/api/blade-user/register-guest', null, {
      tenantId: '000000',
      account: 'admin',
      password: 'Strong#2026x',
    });
    const free = await post('/api/blade-user/register-guest', null, {
      tenantId: '000000',
      account: 'guest-free-1',
      password: 'Strong#2026x',
    });
    expect([taken.statusCode, taken.json()]).toEqual([free.statusCode, free.json()]);
    expect(await t.services.db.select().from(user).where(eq(user.account, 'admin'))).toEqual(before);
    // A long account without a name, or a long name, never reaches a column it does not fit (was a 500).
    const longAccount = await post('/api/blade-user/register-guest', null, {
      tenantId: '000000',
      account: 'a-very-long-account-name-x',
      password: 'Strong#2026x',
    });
    expect(longAccount.statusCode).toBe(200);
    const longName = await post('/api/blade-user/register-guest', null, {
      tenantId: '000000',
      name: '一个非常非常长的名字超过十个字',
      account: 'guest-long-2',
      password: 'Strong#2026x',
    });
    expect(longName.statusCode).toBe(400);
    expect(longName.json().data[0].field).toBe('name');
    const tenant = await post('/api/blade-user/register-guest', null, {
      tenantId: '424242',
      account: 'x1',
      password: 'Strong#2026x',
    });
    expect(tenant.json().msg).toBe('租户不存在');
    const weak = await post('/api/blade-user/register-guest', null, {
      tenantId: '000000',
      account: 'x2',
      password: '12345678',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().data[0].field).toBe('password');
    const empty = await post('/api/blade-user/register-guest', null, { tenantId: '', account: '', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toContain('请先输入租户编号');
  });
});

describe('update-info and update-password', () => {
  it('updates the profile and validates phone and email', async () => {
    const s = await loginToken(t);
    const bad = await post('/api/blade-user/update-info', s.access, { phone: '12345', email: 'not-mail' });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .data.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['email', 'phone']);
    // The catalogue's texts in the request's language (modules/user/messages.ts).
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/blade-user/update-info',
      headers: { ...bearer(s.access), 'accept-language': 'en' },
      payload: { phone: '12345' },
    });
    expect(en.statusCode).toBe(400);
    expect(en.json().msg).toContain('The phone number is malformed');
    expect(en.json().msg).not.toContain('手机');
    expect(en.json().data).toEqual([{ field: 'phone', message: 'The phone number is malformed' }]);
    const good = await post('/api/blade-user/update-info', s.access, {
      realName: '管理员甲',
      phone: '13800138000',
      email: 'a@b.cn',
      avatar: '/files/x.png',
    });
    expect(good.json().data).toMatchObject({
      realName: '管理员甲',
      phone: '13800138000',
      email: 'a@b.cn',
      avatar: '/files/x.png',
    });
    const info = (await t.app.inject({ method: 'GET', url: '/api/blade-user/info', headers: bearer(s.access) })).json();
    expect(info.data.phone).toBe('13800138000');
  });

  it('checks the old password, the confirmation and the policy, then ends other sessions', async () => {
    await post('/api/blade-user/register-guest', null, {
      tenantId: '000000',
      account: 'pwuser',
      password: 'First#2026x',
    });
    await t.services.db
      .update(user)
      .set({ status: 1 })
      .where(and(eq(user.tenantId, '000000'), eq(user.account, 'pwuser')));
    const a = await loginToken(t, { username: 'pwuser', password: 'First#2026x' });
    const b = await loginToken(t, { username: 'pwuser', password: 'First#2026x' });
    const wrongOld = await post('/api/blade-user/update-password', a.access, {
      oldPassword: md5Hex('nope'),
      newPassword: 'Second#2026x',
      newPassword1: 'Second#2026x',
    });
    expect(wrongOld.json()).toMatchObject({ code: 400, msg: '原密码错误' });
    const mismatch = await post('/api/blade-user/update-password', a.access, {
      oldPassword: md5Hex('First#2026x'),
      newPassword: 'Second#2026x',
      newPassword1: 'Second#2026y',
    });
    expect(mismatch.json().msg).toBe('两次密码输入不一致');
    const sameAsAccount = await post('/api/blade-user/update-password', a.access, {
      oldPassword: md5Hex('First#2026x'),
      newPassword: 'pwuser',
      newPassword1: 'pwuser',
    });
    expect(sameAsAccount.statusCode).toBe(400);
    const ok = await post('/api/blade-user/update-password', a.access, {
      oldPassword: md5Hex('First#2026x'),
      newPassword: 'Second#2026x',
      newPassword1: 'Second#2026x',
    });
    expect(ok.json()).toMatchObject({ code: 200, success: true });
    expect((await login(t, { username: 'pwuser', password: 'First#2026x' })).json().error_description).toBe(
      '用户名或密码错误',
    );
    expect((await login(t, { username: 'pwuser', password: 'Second#2026x' })).statusCode).toBe(200);
    // The session that changed it goes on; the other one is ended.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/blade-user/info', headers: bearer(a.access) })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/blade-user/info', headers: bearer(b.access) })).statusCode,
    ).toBe(401);
  });
});

describe('put-file', () => {
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);
  const multipart = (filename: string, content: Buffer, field = 'file') => {
    const boundary = '----atrium' + Math.random().toString(16).slice(2);
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { body, contentType: `multipart/form-data; boundary=${boundary}` };
  };
  const upload = async (token: string | null, filename: string, content: Buffer) => {
    const m = multipart(filename, content);
    return t.app.inject({
      method: 'POST',
      url: '/api/blade-resource/oss/endpoint/put-file',
      headers: { ...(token ? bearer(token) : {}), 'content-type': m.contentType },
      payload: m.body,
    });
  };

  it('stores a PNG and serves it back at its link', async () => {
    const s = await loginToken(t);
    const res = await upload(s.access, 'avatar.png', png);
    expect(res.json()).toMatchObject({ code: 200, success: true });
    const link = res.json().data.link as string;
    expect(link).toMatch(/^\/files\/[0-9a-f]{32}\.png$/);
    const got = await t.app.inject({ method: 'GET', url: link, headers: bearer(s.access) });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(png)).toBe(true);
  });

  it('refuses a file whose content is not an accepted type, whatever its name', async () => {
    const s = await loginToken(t);
    const res = await upload(s.access, 'evil.png', Buffer.from('<script>alert(1)</script>'));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('文件类型不支持');
  });

  it('refuses an oversized file with a clear 400', async () => {
    const small = await createTestApp({ uploadMaxBytes: 1024 });
    try {
      const s = await loginToken(small);
      const m = multipart('big.png', Buffer.concat([png, Buffer.alloc(4096, 2)]));
      const res = await small.app.inject({
        method: 'POST',
        url: '/api/blade-resource/oss/endpoint/put-file',
        headers: { ...bearer(s.access), 'content-type': m.contentType },
        payload: m.body,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe('文件大小超出限制');
    } finally {
      await small.close();
    }
  });

  it('needs a token, and answers 404 for names that are not ours', async () => {
    expect((await upload(null, 'a.png', png)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/files/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/files/00000000000000000000000000000000.png' })).statusCode).toBe(
      404,
    );
  });
});

describe('error-log endpoint', () => {
  it('stores the entries of a logged-in user and refuses anonymous ones', async () => {
    const s = await loginToken(t);
    const entries = [{ type: 'error', url: '/wel/index', message: 'boom', stack: 'at x', time: '2026-11-22 10:00:00' }];
    const res = await post('/api/blade-log/error-logs', s.access, entries);
    expect(res.json()).toMatchObject({ code: 200, data: 1 });
    expect((await post('/api/blade-log/error-logs', null, entries)).statusCode).toBe(401);
    expect((await post('/api/blade-log/error-logs', s.access, { nope: true })).statusCode).toBe(400);
  });
});
