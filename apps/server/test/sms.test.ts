import http from 'node:http';
import { createHash, createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { outboxWorkerOf } from '../src/modules/outbox/module.ts';
import { outbox } from '../src/modules/outbox/table.ts';
import { smsConfig } from '../src/modules/outbox/table.ts';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';

/**
 * SMS configurations (docs/outbox.md "SMS"): the rules per category, the sealed secret, one active configuration
 * per tenant, and delivery through a webhook, Aliyun and Tencent Cloud — each against a server on loopback that
 * checks the request's signature the way the provider documents it.
 */
let t: TestApp;
let A: string;
const TA = '731001';
const BASE = '/api/blade-resource/sms';
const SECRET = 'Provider#Secret#42';

type Seen = { path: string; headers: http.IncomingHttpHeaders; body: string; verified: boolean };
let server: http.Server;
let url = '';
const seen: Seen[] = [];

/** Aliyun RPC signature 1.0, written again here from the provider's documentation. */
function aliyunVerify(body: string): boolean {
  const pairs = body.split('&').map((p) => p.split('=').map((x) => decodeURIComponent(x)) as [string, string]);
  const signature = pairs.find(([k]) => k === 'Signature')?.[1];
  const enc = (s: string) =>
    encodeURIComponent(s)
      .replace(/\+/g, '%20')
      .replace(/\*/g, '%2A')
      .replace(/%7E/g, '~')
      .replace(/!/g, '%21')
      .replace(/'/g, '%27')
      .replace(/\(/g, '%28')
      .replace(/\)/g, '%29');
  const canonical = pairs
    .filter(([k]) => k !== 'Signature')
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join('&');
  const expected = createHmac('sha1', `${SECRET}&`)
    .update(`POST&%2F&${enc(canonical)}`)
    .digest('base64');
  return expected === signature;
}

/** Tencent Cloud TC3-HMAC-SHA256, written again here from the provider's documentation. */
function tencentVerify(h: http.IncomingHttpHeaders, body: string): boolean {
  const auth = String(h.authorization);
  const m =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/sms\/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return false;
  const [, , date, signature] = m;
  const ts = String(h['x-tc-timestamp']);
  if (new Date(Number(ts) * 1000).toISOString().slice(0, 10) !== date) return false;
  const hex = (s: string) => createHash('sha256').update(s).digest('hex');
  const canonical = `POST\n/\n\ncontent-type:${h['content-type']}\nhost:${h.host}\n\ncontent-type;host\n${hex(body)}`;
  const toSign = `TC3-HMAC-SHA256\n${ts}\n${date}/sms/tc3_request\n${hex(canonical)}`;
  const k = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();
  const key = k(k(k(`TC3${SECRET}`, date), 'sms'), 'tc3_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  A = (await provisionedTenant(t, platform, TA)).token;
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '';
      let verified = false;
      let answer: unknown = {};
      if (path.startsWith('/aliyun')) {
        verified = aliyunVerify(body);
        answer = verified
          ? { Code: 'OK', Message: 'OK', BizId: '1', RequestId: 'r' }
          : { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched' };
      } else if (path.startsWith('/tencent')) {
        verified = tencentVerify(req.headers, body);
        answer = verified
          ? { Response: { SendStatusSet: [{ Code: 'Ok', Message: 'send success' }], RequestId: 'r' } }
          : { Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'bad signature' }, RequestId: 'r' } };
      } else {
        verified =
          req.headers['x-atrium-signature'] === `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
      }
      seen.push({ path, headers: req.headers, body, verified });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await t?.close();
});

const api = (lang?: 'en') => client(t, A, lang);
const save = async (body: object, lang?: 'en') => api(lang).post(`${BASE}/submit`, body);
const send = async (code: string, params: object = { code: '654321' }) => {
  const res = await api().post(`${BASE}/endpoint/send-message`, { code, phones: '13900001111', params });
  expect(res.statusCode, res.body).toBe(200);
  const [id] = res.json().data as string[];
  await outboxWorkerOf(t.services)!.runOnce();
  return (await t.services.db.select().from(outbox).where(eq(outbox.id, id)))[0];
};

describe('SMS configurations', () => {
  it('each category says what it needs, in both languages', async () => {
    const hook = await save({ smsCode: 'h1', category: 4 }, 'en');
    expect(hook.json()).toMatchObject({ code: 400, msg: 'A webhook needs its endpoint' });
    expect((await save({ smsCode: 'h1', category: 4 })).json().msg).toBe('HTTP 回调需要接口地址');
    const ali = (await save({ smsCode: 'a1', category: 2, accessKey: 'ak' }, 'en')).json();
    expect(ali).toMatchObject({ code: 400, data: [{ field: 'secretKey' }] });
    expect(ali.msg).toContain('secret key');
    const ali2 = await save({ smsCode: 'a1', category: 2, accessKey: 'ak', secretKey: SECRET }, 'en');
    expect(ali2.json()).toMatchObject({ code: 400, data: [{ field: 'templateId' }] });
    const tc = await save(
      { smsCode: 't1', category: 3, accessKey: 'ak', secretKey: SECRET, templateId: '1', signName: 's' },
      'en',
    );
    expect(tc.json()).toMatchObject({ code: 400, data: [{ field: 'appId' }] });
    expect((await save({ smsCode: 'bad code!', category: 1 })).statusCode).toBe(400);
    expect((await save({ smsCode: 'h1', category: 9 })).statusCode).toBe(400);
    expect((await save({ smsCode: 'h1', category: 4, endpoint: 'ftp://x' })).statusCode).toBe(400);
  });

  it('the secret key is sealed at rest, never answered, and kept when an update leaves it empty', async () => {
    const res = await save({ smsCode: 'sealed', category: 4, endpoint: `${url}/hook`, secretKey: SECRET });
    expect(res.statusCode, res.body).toBe(200);
    const rec = res.json().data as { id: string; version: number };
    for (const body of [
      res.body,
      (await api().get(`${BASE}/detail?id=${rec.id}`)).body,
      (await api().get(`${BASE}/list`)).body,
    ]) {
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain('secretKey');
      expect(body).not.toContain('Sealed');
    }
    const [stored] = await t.services.db.select().from(smsConfig).where(eq(smsConfig.id, rec.id));
    expect(stored.secretKeySealed).toMatch(/^v1\./);
    expect(stored.secretKeySealed).not.toContain(SECRET);
    const upd = await save({
      id: rec.id,
      version: rec.version,
      smsCode: 'sealed',
      category: 4,
      endpoint: `${url}/hook`,
      secretKey: '',
    });
    expect(upd.statusCode, upd.body).toBe(200);
    const [after] = await t.services.db.select().from(smsConfig).where(eq(smsConfig.id, rec.id));
    expect(after.secretKeySealed).toBe(stored.secretKeySealed);
  });

  it('one active configuration per tenant: enable switches the others off; the database refuses two', async () => {
    const a = (await save({ smsCode: 'one', category: 1 })).json().data.id as string;
    const b = (await save({ smsCode: 'two', category: 1 })).json().data.id as string;
    expect((await api().post(`${BASE}/enable`, { id: a })).statusCode).toBe(200);
    const en = await api('en').post(`${BASE}/enable`, { id: b });
    expect(en.json()).toMatchObject({ code: 200, msg: 'Enabled' });
    const active = (await api().get(`${BASE}/list?status=2`)).json().data.records as { id: string }[];
    expect(active.map((r) => r.id)).toEqual([b]);
    await expect(t.services.db.update(smsConfig).set({ status: 2 }).where(eq(smsConfig.id, a))).rejects.toThrow();
    // status is not taken from a submit.
    const v = (await api().get(`${BASE}/detail?id=${a}`)).json().data;
    await save({ ...v, status: 2 });
    expect((await api().get(`${BASE}/detail?id=${a}`)).json().data.status).toBe(1);
  });

  it('a webhook gets the message as JSON, signed with the secret key', async () => {
    const msg = await send('sealed');
    expect(msg).toMatchObject({ status: 2, provider: 'webhook' });
    const hit = seen.at(-1)!;
    expect(hit.path).toBe('/hook');
    expect(hit.verified).toBe(true);
    expect(JSON.parse(hit.body)).toMatchObject({
      phone: '13900001111',
      params: { code: '654321' },
      templateCode: 'sealed',
    });
  });

  it('Aliyun: a signed SendSms the fake provider verifies; a wrong secret is recorded as its error', async () => {
    const base = {
      category: 2,
      accessKey: 'LTAI-test',
      templateId: 'SMS_123',
      signName: '阿里云短信测试',
      endpoint: `${url}/aliyun`,
    };
    expect((await save({ smsCode: 'ali', ...base, secretKey: SECRET })).statusCode).toBe(200);
    const msg = await send('ali', { code: '12 34*!(x)~' });
    expect(msg).toMatchObject({ status: 2, provider: 'aliyun' });
    const hit = seen.at(-1)!;
    expect(hit.verified).toBe(true);
    const form = new URLSearchParams(hit.body);
    expect(form.get('Action')).toBe('SendSms');
    expect(form.get('PhoneNumbers')).toBe('13900001111');
    expect(JSON.parse(form.get('TemplateParam')!)).toEqual({ code: '12 34*!(x)~' });
    expect((await save({ smsCode: 'ali-bad', ...base, secretKey: 'wrong' })).statusCode).toBe(200);
    const bad = await send('ali-bad');
    expect(bad).toMatchObject({ status: 1, attempts: 1 });
    expect(bad.lastError).toContain('SignatureDoesNotMatch');
  });

  it('Tencent Cloud: a TC3-signed SendSms the fake provider verifies', async () => {
    const base = {
      category: 3,
      accessKey: 'AKID-test',
      appId: '1400000000',
      templateId: '449739',
      signName: '腾讯云',
      endpoint: `${url}/tencent`,
    };
    expect((await save({ smsCode: 'tc', ...base, secretKey: SECRET })).statusCode).toBe(200);
    const msg = await send('tc', { code: '778899', minutes: 5 });
    expect(msg).toMatchObject({ status: 2, provider: 'tencent' });
    const hit = seen.at(-1)!;
    expect(hit.verified).toBe(true);
    expect(hit.headers['x-tc-action']).toBe('SendSms');
    expect(JSON.parse(hit.body)).toMatchObject({
      PhoneNumberSet: ['+8613900001111'],
      SmsSdkAppId: '1400000000',
      TemplateId: '449739',
      TemplateParamSet: ['778899', '5'],
    });
    expect((await save({ smsCode: 'tc-bad', ...base, secretKey: 'wrong' })).statusCode).toBe(200);
    const bad = await send('tc-bad');
    expect(bad.lastError).toContain('AuthFailure.SignatureFailure');
  });
});
