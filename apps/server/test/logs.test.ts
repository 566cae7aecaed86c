import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loggerOptions } from '../src/platform/logging.ts';
import { md5Hex } from '../src/platform/password.ts';
import net from 'node:net';
import { listCameraNetworks } from './camera-networks.ts';
import {
  ADMIN_PASSWORD,
  BASIC,
  client,
  createTestApp,
  login,
  loginToken,
  provisionedTenant,
  type TestApp,
} from './harness.ts';

/**
 * A log scan: every line the server writes at debug level during sign-in, refresh and a failing query is collected,
 * and no credential may appear in it — the password hash, the refresh token, the captcha code, a failed query's
 * parameters; then a camera's stream and ONVIF credentials through a failed play and PTZ command (ffmpeg names its
 * input with the URL's user:password), the device's MQTT secret, SMTP and SMS keys.
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

  it('a camera’s stream and ONVIF credentials, its device secret, SMTP and SMS keys reach no line', async () => {
    const platform = (await loginToken(t)).access;
    const admin = (await provisionedTenant(t, platform, '750091')).token;
    await listCameraNetworks(t, '750091', ['127.0.0.0/8']);
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closed = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const api = client(t, admin);
    const saved = await api.post('/api/blade-device-access/cameraDevice/save', {
      deviceCode: '11010100001310000091',
      name: 'log cam',
      deviceType: '131',
      regionCode: '110101',
      streamUrl: `rtsp://camuser:CamSecret0@127.0.0.1:${closed}/cam`,
      ptz: 1,
      onvifUrl: `http://onvifuser:OnvifUrlPw7@127.0.0.1:${closed}/onvif/device_service`,
      onvifUser: 'onvifuser',
      onvifPassword: 'OnvifSecret8',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { id, deviceSecret } = saved.json().data as { id: string; deviceSecret: string };
    // The play fails (nothing listens): the stream's failure is logged with ffmpeg's last lines.
    expect((await api.get(`/api/video/queryDeviceVideo?deviceInfoId=${id}`)).statusCode).toBe(400);
    expect((await api.get(`/api/video/ptz?deviceInfoId=${id}&command=up`)).statusCode).toBe(400);
    const smtp = await api.post('/api/blade-resource/smtp/submit', {
      name: 'log smtp',
      host: '127.0.0.1',
      port: closed,
      tlsMode: 1,
      username: 'mailer',
      password: 'SmtpSecret5',
      fromAddress: 'noreply@atrium.test',
    });
    expect(smtp.statusCode, smtp.body).toBe(200);
    const sms = await api.post('/api/blade-resource/sms/submit', {
      smsCode: 'log-sms',
      category: 2,
      accessKey: 'ak',
      secretKey: 'SmsSecret6',
      templateId: 'SMS_1',
      signName: 'Atrium',
    });
    expect(sms.statusCode, sms.body).toBe(200);
    // Whatever else writes a URL with credentials into a line: taken out too.
    t.app.log.warn({ broker: 'mqtt://broker:BrokerSecret4@10.0.0.2:1883' }, 'probe');

    const all = lines.join('');
    expect(all).toContain('video: stream failed'); // the failure was logged…
    for (const secret of [
      'CamSecret0',
      'OnvifUrlPw7',
      'OnvifSecret8',
      deviceSecret,
      'SmtpSecret5',
      'SmsSecret6',
      'BrokerSecret4',
    ]) {
      expect([secret.slice(0, 8), all.includes(secret)]).toEqual([secret.slice(0, 8), false]);
    }
    expect(all).toContain('rtsp://[REDACTED]@127.0.0.1'); // ffmpeg's input was logged, its credentials taken out
  }, 30_000);
});
