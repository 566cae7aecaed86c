import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { withTenant } from '../src/platform/tenant-db.ts';
import { outboxWorkerOf } from '../src/modules/outbox/module.ts';
import { enqueueSms } from '../src/modules/outbox/service.ts';
import { outbox, outboxJob } from '../src/modules/outbox/table.ts';
import { OutboxWorker } from '../src/modules/outbox/worker.ts';
import {
  client,
  createTestApp,
  loginToken,
  provisionedTenant,
  secondInstance,
  tenantUser,
  type TestApp,
} from './harness.ts';

/**
 * The outbox (docs/outbox.md): queued in the caller's transaction, delivered by the worker, retried with backoff,
 * never lost when a worker dies (lease), shared by workers without double delivery (SKIP LOCKED), read-only screen.
 */
let t: TestApp;
let platform: string;
let A: string;
let B: string;
const TA = '730001';
const TB = '730002';

/** A webhook receiver on loopback: answers the queued status codes in turn (200 when none is left). */
type Hook = {
  url: string;
  got: { id: string; phone: string; text: string }[];
  answers: number[];
  close(): Promise<void>;
};
async function webhook(): Promise<Hook> {
  // `url` and `close` are set below, once the server listens.
  const hook = { got: [], answers: [] } as unknown as Hook;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const status = hook.answers.shift() ?? 200;
      if (status === 200) hook.got.push(JSON.parse(body) as Hook['got'][number]);
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(status === 200 ? '{"ok":true}' : '{"error":"busy"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hook.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  hook.close = () => new Promise<void>((r) => server.close(() => r()));
  return hook;
}

let hook: Hook;
const api = (token = A, lang?: 'en') => client(t, token, lang);
const row = async (id: string) => (await t.services.db.select().from(outbox).where(eq(outbox.id, id)))[0];
const job = async (id: string) => (await t.services.db.select().from(outboxJob).where(eq(outboxJob.id, id)))[0];
const worker = () => outboxWorkerOf(t.services)!;
/** Runs rounds until nothing is due (at most `n`). */
const drain = async (w: OutboxWorker = worker(), n = 20) => {
  for (let i = 0; i < n; i++) if (!(await w.runOnce())) return;
};

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
  A = (await provisionedTenant(t, platform, TA)).token;
  B = (await provisionedTenant(t, platform, TB)).token;
  hook = await webhook();
});
afterAll(async () => {
  await hook?.close();
  await t?.close();
});

describe('outbox', () => {
  it('a fresh tenant: send-message is recorded as sent by the outbox, its text readable on the screen', async () => {
    const res = await api().post('/api/blade-resource/sms/endpoint/send-message', {
      phones: '13800000001,13800000002',
      params: JSON.stringify({ code: '482913' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().data as string[];
    expect(ids).toHaveLength(2);
    expect((await row(ids[0])).status).toBe(1);
    await drain();
    const list = await api().get('/api/blade-resource/outbox/list?channel=sms&status=2&recipient=13800000001');
    expect(list.statusCode, list.body).toBe(200);
    const records = list.json().data.records as Record<string, unknown>[];
    expect(records.map((r) => r.id)).toEqual([ids[0]]);
    const detail = (await api().get(`/api/blade-resource/outbox/detail?id=${ids[0]}`)).json().data;
    expect(detail).toMatchObject({ status: 2, provider: 'outbox', attempts: 1, recipient: '13800000001' });
    expect(detail.content).toContain('482913');
    expect(detail.sentTime).toBeTruthy();
    expect(await job(ids[0])).toBeUndefined();
    // Another tenant never sees it; a user without the screen's code is refused.
    expect((await api(B).get(`/api/blade-resource/outbox/detail?id=${ids[0]}`)).statusCode).toBe(404);
    expect((await api(B).get('/api/blade-resource/outbox/list')).body).not.toContain(ids[0]);
    const nobody = await tenantUser(t, TA, 'no-outbox', ['sms']);
    expect((await api(nobody).get('/api/blade-resource/outbox/list')).statusCode).toBe(403);
    expect(
      (await api(nobody).post('/api/blade-resource/sms/endpoint/send-message', { phones: '13800000001' })).statusCode,
    ).toBe(403);
    // Read-only: there is no submit or remove.
    expect((await api().post('/api/blade-resource/outbox/submit', { recipient: 'x' })).statusCode).toBe(404);
    expect((await api().post(`/api/blade-resource/outbox/remove?ids=${ids[0]}`)).statusCode).toBe(404);
  });

  it('bad input is a 400 in the caller language', async () => {
    const send = (body: object) => api(A, 'en').post('/api/blade-resource/sms/endpoint/send-message', body);
    expect((await send({ phones: '123' })).json()).toMatchObject({
      code: 400,
      msg: expect.stringContaining('11 digits'),
    });
    expect((await send({})).json().code).toBe(400);
    expect((await send({ phones: '13800000001', params: '{bad' })).json().code).toBe(400);
    expect((await send({ phones: '13800000001', code: 'nosuch' })).json()).toMatchObject({
      code: 400,
      msg: 'No SMS configuration has this code',
    });
    const many = Array.from({ length: 101 }, (_, i) => `138${String(i).padStart(8, '0')}`).join(',');
    expect((await send({ phones: many })).json().code).toBe(400);
  });

  it('queued if and only if the caller commits', async () => {
    let id = '';
    await expect(
      withTenant(t.services.db, TA, async (tx) => {
        id = await enqueueSms(t.services, tx, { tenantId: TA, phone: '13800000009', text: 'rolled back' });
        throw new Error('business write failed');
      }),
    ).rejects.toThrow('business write failed');
    expect(await row(id)).toBeUndefined();
    expect(await job(id)).toBeUndefined();
    // Another tenant's id in the caller's transaction is refused by row-level security.
    await expect(
      withTenant(t.services.db, TA, (tx) =>
        enqueueSms(t.services, tx, { tenantId: TB, phone: '13800000009', text: 'x' }),
      ),
    ).rejects.toThrow();
  });

  it('retries with exponential backoff, then succeeds; a message that keeps failing ends failed', async () => {
    const cfg = await api().post('/api/blade-resource/sms/submit', {
      smsCode: 'hook',
      category: 4,
      endpoint: hook.url,
      content: '您的验证码为 ${code}',
    });
    expect(cfg.statusCode, cfg.body).toBe(200);
    expect((await api().post('/api/blade-resource/sms/enable', { id: cfg.json().data.id })).statusCode).toBe(200);
    const w = new OutboxWorker(t.services, { backoffMs: 60_000, maxAttempts: 3 });
    hook.answers.push(503, 500);
    const [id] = (
      await api().post('/api/blade-resource/sms/endpoint/send-message', {
        phones: '13800000003',
        params: { code: '111222' },
      })
    ).json().data as string[];
    expect((await row(id)).content).toBe('您的验证码为 111222');
    expect(await w.runOnce()).toBe(1);
    let r = await row(id);
    expect(r).toMatchObject({ status: 1, attempts: 1 });
    expect(r.lastError).toContain('HTTP 503');
    const first = r.nextAttemptTime!.getTime() - Date.now();
    expect(first).toBeGreaterThan(50_000);
    expect(first).toBeLessThanOrEqual(60_000 + 1000);
    expect(await w.runOnce()).toBe(0); // not yet due
    t.clock.offsetMs += 61_000;
    expect(await w.runOnce()).toBe(1);
    r = await row(id);
    expect(r).toMatchObject({ status: 1, attempts: 2 });
    // The second wait is twice the first.
    const second = r.nextAttemptTime!.getTime() - (Date.now() + t.clock.offsetMs);
    expect(second).toBeGreaterThan(110_000);
    t.clock.offsetMs += 121_000;
    expect(await w.runOnce()).toBe(1);
    r = await row(id);
    expect(r).toMatchObject({ status: 2, attempts: 3, provider: 'webhook' });
    expect(hook.got.at(-1)).toMatchObject({ id, phone: '13800000003', text: '您的验证码为 111222' });

    hook.answers.push(500, 500, 500);
    const [bad] = (
      await api().post('/api/blade-resource/sms/endpoint/send-message', {
        phones: '13800000004',
        params: { code: '1' },
      })
    ).json().data as string[];
    for (let i = 0; i < 3; i++) {
      t.clock.offsetMs += 3600_000;
      await w.runOnce();
    }
    expect(await row(bad)).toMatchObject({ status: 3, attempts: 3, nextAttemptTime: null });
    expect(await job(bad)).toBeUndefined();
    t.clock.offsetMs = 0; // the access token would have expired
    const failed = (await api().get('/api/blade-resource/outbox/list?status=3')).json().data.records as {
      id: string;
    }[];
    expect(failed.map((x) => x.id)).toContain(bad);
  });

  it('a message claimed by a worker that died is delivered once its lease has run out', async () => {
    const id = await withTenant(t.services.db, TA, (tx) =>
      enqueueSms(t.services, tx, { tenantId: TA, phone: '13800000005', text: 'after a crash' }),
    );
    // Claimed by a process that then died: the lease still runs.
    const now = Date.now() + t.clock.offsetMs;
    await t.services.db
      .update(outboxJob)
      .set({ lockedBy: 'dead:1', lockedUntil: new Date(now + 5 * 60_000), attempts: 1 })
      .where(eq(outboxJob.id, id));
    const w = new OutboxWorker(t.services);
    expect(await w.runOnce()).toBe(0);
    t.clock.offsetMs += 5 * 60_000 + 1000;
    expect(await w.runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 2, attempts: 2 });
    expect(hook.got.some((g) => g.id === id)).toBe(true);
    t.clock.offsetMs = 0;
  });

  it('two workers share the due messages: each is delivered exactly once', async () => {
    const before = hook.got.length;
    const ids = await withTenant(t.services.db, TA, async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < 24; i++)
        out.push(
          await enqueueSms(t.services, tx, {
            tenantId: TA,
            phone: `1390000${String(i).padStart(4, '0')}`,
            text: `n${i}`,
          }),
        );
      return out;
    });
    const w1 = new OutboxWorker(t.services, { batch: 5 });
    const w2 = new OutboxWorker(t.services, { batch: 5 });
    await Promise.all([drain(w1), drain(w2)]);
    const delivered = hook.got.slice(before).map((g) => g.id);
    expect([...delivered].sort()).toEqual([...ids].sort());
    const rows = await t.services.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(
        sql`${outbox.id} in (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )}) and ${outbox.status} = 2`,
      );
    expect(rows[0].n).toBe(24);
  });

  it('two servers on one database (docs/cluster.md): each message delivered once, one attempt each', async () => {
    const before = hook.got.length;
    const ids = await withTenant(t.services.db, TA, async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < 30; i++)
        out.push(
          await enqueueSms(t.services, tx, {
            tenantId: TA,
            phone: `1391000${String(i).padStart(4, '0')}`,
            text: `c${i}`,
          }),
        );
      return out;
    });
    const other = await secondInstance(t);
    try {
      const workers = [t, t, other, other].map((app) => new OutboxWorker(app.services, { batch: 3 }));
      await Promise.all(workers.map((w) => drain(w)));
      const delivered = hook.got.slice(before).map((g) => g.id);
      expect([...delivered].sort()).toEqual([...ids].sort());
      for (const id of ids) expect(await job(id)).toBeUndefined();
      const attempts = await t.services.db
        .select({ attempts: outbox.attempts, status: outbox.status })
        .from(outbox)
        .where(
          sql`${outbox.id} in (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`,
        );
      expect(attempts).toHaveLength(30);
      expect(attempts.every((a) => a.status === 2 && a.attempts === 1)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('the started worker delivers by itself and stops cleanly', async () => {
    const w = new OutboxWorker(t.services, { pollMs: 50 });
    w.start();
    const id = await withTenant(t.services.db, TA, (tx) =>
      enqueueSms(t.services, tx, { tenantId: TA, phone: '13800000006', text: 'by itself' }),
    );
    for (let i = 0; i < 100 && (await row(id)).status === 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await row(id)).status).toBe(2);
    await w.stop();
    const later = await withTenant(t.services.db, TA, (tx) =>
      enqueueSms(t.services, tx, { tenantId: TA, phone: '13800000007', text: 'after stop' }),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect((await row(later)).status).toBe(1);
    await drain();
  });

  it("the app's worker starts when the server listens and stops when it closes", async () => {
    // `running` is private to OutboxWorker: the test reads it.
    const w = worker() as unknown as { running: boolean };
    expect(w.running).toBe(false);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    expect(w.running).toBe(true);
    // Closed with the app in afterAll (its onClose hook stops the worker); stopping itself is checked above.
  });
});
