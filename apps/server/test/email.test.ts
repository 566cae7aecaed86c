import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { withTenant } from '../src/platform/tenant-db.ts';
import { outboxWorkerOf } from '../src/modules/outbox/module.ts';
import { enqueueEmail } from '../src/modules/outbox/service.ts';
import { outbox } from '../src/modules/outbox/table.ts';
import { smtpConfig } from '../src/modules/outbox/table.ts';
import { bearer, client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';

/**
 * Email (docs/outbox.md "Email"): SMTP settings with a sealed password, and a real SMTP server on loopback
 * (smtp-server) that receives the message, its attachment (an uploaded file) and checks the login.
 */
let t: TestApp;
let A: string;
const TA = '732001';
const BASE = '/api/blade-resource/smtp';
const PASSWORD = 'Smtp#Password#2026';
let smtp: SMTPServer;
let port = 0;
const received: { from: string; to: string[]; raw: string; user?: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  A = (await provisionedTenant(t, platform, TA)).token;
  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'mailer' && auth.password === PASSWORD) cb(null, { user: 'mailer' });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString()));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => smtp?.close(() => r()));
  await t?.close();
});

const api = (lang?: 'en') => client(t, A, lang);

/** A multipart upload through put-file, as the console sends it; answers the attach id. */
async function upload(name: string, content: string): Promise<string> {
  const boundary = `----atrium${Date.now().toString(16)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/blade-resource/oss/endpoint/put-file',
    headers: { ...bearer(A), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.attachId as string;
}

const row = async (id: string) => (await t.services.db.select().from(outbox).where(eq(outbox.id, id)))[0];

describe('email', () => {
  it('without SMTP settings an email is recorded by the outbox', async () => {
    const id = await withTenant(t.services.db, TA, (tx) =>
      enqueueEmail(t.services, tx, {
        tenantId: TA,
        to: 'a@example.com',
        subject: 'Hello',
        html: '<p>Hi <b>there</b> &amp; all</p>',
      }),
    );
    await outboxWorkerOf(t.services)!.runOnce();
    expect(await row(id)).toMatchObject({ status: 2, provider: 'outbox', content: 'Hi there & all', channel: 'email' });
  });

  it('SMTP settings: the password is sealed and never answered; bad input is a 400', async () => {
    expect((await api('en').post(`${BASE}/submit`, { name: 'x' })).json().code).toBe(400);
    const bad = await api('en').post(`${BASE}/submit`, {
      name: 'x',
      host: 'h',
      port: 25,
      tlsMode: 1,
      fromAddress: 'nope',
    });
    expect(bad.json()).toMatchObject({ code: 400, data: [{ field: 'fromAddress' }] });
    const res = await api().post(`${BASE}/submit`, {
      name: 'loopback',
      host: '127.0.0.1',
      port,
      tlsMode: 1,
      username: 'mailer',
      password: PASSWORD,
      fromAddress: 'noreply@atrium.test',
      fromName: 'Atrium',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as string;
    for (const body of [
      res.body,
      (await api().get(`${BASE}/detail?id=${id}`)).body,
      (await api().get(`${BASE}/list`)).body,
    ]) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain('"password"');
    }
    const [stored] = await t.services.db.select().from(smtpConfig).where(eq(smtpConfig.id, id));
    expect(stored.passwordSealed).toMatch(/^v1\./);
    expect((await api().post(`${BASE}/enable`, { id })).statusCode).toBe(200);
  });

  it('a real SMTP server on loopback receives the message and its attachment', async () => {
    const attachId = await upload('report.txt', 'quarterly numbers: 42\n');
    const id = await withTenant(t.services.db, TA, (tx) =>
      enqueueEmail(t.services, tx, {
        tenantId: TA,
        to: 'client@example.com',
        subject: '审核结果 Review result',
        html: '<p>Your application is <b>approved</b>.</p>',
        attachIds: [attachId],
      }),
    );
    await outboxWorkerOf(t.services)!.runOnce();
    const r = await row(id);
    expect(r, String(r.lastError)).toMatchObject({ status: 2, provider: 'smtp', attachIds: attachId });
    const mail = received.at(-1)!;
    expect(mail).toMatchObject({ from: 'noreply@atrium.test', to: ['client@example.com'], user: 'mailer' });
    expect(mail.raw).toContain('filename=report.txt');
    expect(mail.raw).toContain(Buffer.from('quarterly numbers: 42\n').toString('base64'));
    expect(mail.raw).toMatch(/Subject: =\?UTF-8\?/);
    // The outbox screen shows it.
    const detail = (await api().get(`/api/blade-resource/outbox/detail?id=${id}`)).json().data;
    expect(detail).toMatchObject({ channel: 'email', recipient: 'client@example.com', status: 2 });
  });

  it('unknown or foreign attachments are refused when queued', async () => {
    await expect(
      withTenant(t.services.db, TA, (tx) =>
        enqueueEmail(t.services, tx, {
          tenantId: TA,
          to: 'c@example.com',
          subject: 's',
          text: 'x',
          attachIds: ['123456'],
        }),
      ),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('the test action sends through that server; a wrong password is recorded and retried', async () => {
    const res = await api().post(`${BASE}/submit`, {
      name: 'wrong-login',
      host: '127.0.0.1',
      port,
      tlsMode: 1,
      username: 'mailer',
      password: 'not-it',
      fromAddress: 'noreply@atrium.test',
    });
    const bad = res.json().data.id as string;
    const queued = await api('en').post(`${BASE}/test`, { id: bad, to: 'admin@example.com' });
    expect(queued.json()).toMatchObject({ code: 200, msg: expect.stringContaining('queued') });
    await outboxWorkerOf(t.services)!.runOnce();
    const r = await row(queued.json().data as string);
    expect(r).toMatchObject({ status: 1, attempts: 1 });
    expect(r.lastError).toMatch(/smtp: .*(auth|Invalid)/i);
    const good = (await api().get(`${BASE}/list?name=loopback`)).json().data.records[0].id as string;
    const ok = await api().post(`${BASE}/test`, { id: good, to: 'admin@example.com' });
    const before = received.length;
    await outboxWorkerOf(t.services)!.runOnce();
    expect((await row(ok.json().data as string)).status).toBe(2);
    expect(received.length).toBe(before + 1);
    expect(received.at(-1)!.to).toEqual(['admin@example.com']);
  });
});
