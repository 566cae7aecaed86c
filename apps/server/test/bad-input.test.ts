// Issue 24 §4.6: inputs that used to answer 500 — a malformed multipart body to put-file, an error-log entry's `time`
// longer than its column, a NUL byte in the Basic client id of a token request — are each a clear 400 in the envelope
// (docs/server.md "Bad input").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, bearer, createTestApp, loginToken, type TestApp } from './harness.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await loginToken(t)).access;
});
afterAll(async () => t?.close());

const PUT = '/api/blade-resource/oss/endpoint/put-file';
const upload = (contentType: string, payload: string | Buffer, lang?: 'en') =>
  t.app.inject({
    method: 'POST',
    url: PUT,
    headers: { ...bearer(token), 'content-type': contentType, ...(lang ? { 'accept-language': 'en' } : {}) },
    payload,
  });
const part = (boundary: string, body: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${body}\r\n--${boundary}--\r\n`;

describe('put-file: a malformed multipart body is a 400', () => {
  const cases: [string, string, string | Buffer][] = [
    ['no boundary', 'multipart/form-data', part('x', 'abc')],
    ['an empty boundary', 'multipart/form-data; boundary=', part('x', 'abc')],
    ['a wrong boundary', 'multipart/form-data; boundary=yyy', part('x', 'abc')],
    ['a truncated body', 'multipart/form-data; boundary=x', part('x', 'abc').slice(0, 60)],
    [
      'a body cut inside the part',
      'multipart/form-data; boundary=x',
      `--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc`,
    ],
    ['headers never ended', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"'],
    ['garbage', 'multipart/form-data; boundary=x', '\u0000\u0001garbage'],
    ['an empty body', 'multipart/form-data; boundary=x', ''],
  ];
  for (const [name, type, body] of cases)
    it(name, async () => {
      const res = await upload(type, body);
      expect([res.statusCode, res.json().code, res.json().success]).toEqual([400, 400, false]);
      expect(res.json().msg).toMatch(/文件|上传/);
      const en = await upload(type, body, 'en');
      expect([en.statusCode, en.json().msg]).toEqual([400, expect.stringMatching(/file|upload/i)]);
    });
});

describe('put-file: a control character in the file name is a 400', () => {
  it('NUL and newline', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
    for (const name of ['a\u0000b.png', 'a\u0007.png']) {
      const body = Buffer.concat([
        Buffer.from(
          `--x\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from('\r\n--x--\r\n'),
      ]);
      const res = await upload('multipart/form-data; boundary=x', body);
      expect([res.statusCode, res.json().msg]).toEqual([400, '文件名含有控制字符，请改名后再上传']);
    }
  });
});

describe('error-logs: a time longer than its column', () => {
  it('is a 400 naming the field; 64 characters are taken', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-log/error-logs',
      headers: bearer(token),
      payload: [{ type: 'error', message: 'm', time: 'x'.repeat(65) }],
    });
    expect([res.statusCode, res.json().code]).toEqual([400, 400]);
    expect(res.json().msg).toContain('错误日志的时间最多 64 个字符');
    expect(res.json().data).toEqual([{ field: '0.time', message: '错误日志的时间最多 64 个字符' }]);
    const fine = await t.app.inject({
      method: 'POST',
      url: '/api/blade-log/error-logs',
      headers: bearer(token),
      payload: [{ type: 'error', message: 'm', time: 'x'.repeat(64) }],
    });
    expect(fine.statusCode).toBe(200);
  });
});

describe('token: a NUL byte in the Basic client id', () => {
  const token = (raw: string, lang?: 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=x&grant_type=password',
      headers: {
        authorization: `Basic ${Buffer.from(raw).toString('base64')}`,
        'tenant-id': '000000',
        ...(lang ? { 'accept-language': 'en' } : {}),
      },
    });
  for (const raw of ['sa\u0000ber:saber_secret', 'saber:sa\u0000ber_secret', '\u0000:x', 'sa\u0000ber', 'sa\nber:x'])
    it(JSON.stringify(raw), async () => {
      const res = await token(raw);
      expect([res.statusCode, res.json().error_code]).toEqual([400, 400]);
      expect(res.json().error_description).toContain('客户端认证信息格式错误');
      const en = await token(raw, 'en');
      expect([en.statusCode, en.json().error_description]).toEqual([400, expect.stringContaining('Malformed client')]);
    });
  it('a wrong secret stays a 401; the right client signs in', async () => {
    expect((await token('saber:wrong')).statusCode).toBe(401);
    expect(BASIC).toBe(`Basic ${Buffer.from('saber:saber_secret').toString('base64')}`);
    expect((await loginToken(t)).access).toBeTruthy();
  });
});
