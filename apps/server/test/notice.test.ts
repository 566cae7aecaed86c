// 通知公告 and the bell (docs/notices.md): the content sanitised on every save (script, event handlers, javascript:
// links, SVG, style attributes never stored), drafts and later releases hidden from readers, the bell's sources by the
// caller's codes, unread and seen per user, another tenant's notice a 404 on every path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '@atrium/contract';
import { newId } from '../src/db/ids.ts';
import { cameraDevice } from '../src/modules/device/index.ts';
import { deviceStatusEvent } from '../src/modules/device-access/index.ts';
import { outbox } from '../src/modules/outbox/index.ts';
import { sanitiseNotice } from '../src/modules/notice/index.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { client, createTestApp, loginToken, provisionedTenant, tenantUser, type TestApp } from './harness.ts';

const T = '760101';
const T2 = '760102';
const base = '/api/blade-desk/notice';
const { bell, bellSeen, read } = api.desk;
let t: TestApp;
let admin: string;
let other: string;
let reader: string;
let watcher: string;

type Bell = {
  notices: { id: string; title: string; unread: boolean }[];
  waiting: { todo: number; claim: number };
  devices: { deviceCode: string; name: string | null; unread: boolean }[];
  failures: { recipient: string; lastError: string | null; unread: boolean }[];
  unread: number;
  seenUpTo: string | null;
};

const ago = (ms: number) => new Date(t.services.now().getTime() - ms).toISOString();
async function submit(token: string, body: Record<string, unknown>, lang?: 'en') {
  return client(t, token, lang).post(`${base}/submit`, { category: 1, releaseTime: ago(60_000), ...body });
}
async function made(token: string, body: Record<string, unknown>) {
  const res = await submit(token, body);
  expect([res.statusCode, res.body.slice(0, 300)]).toEqual([200, res.body.slice(0, 300)]);
  return res.json().data as { id: string; content: string; version: number };
}
async function bellOf(token: string): Promise<Bell> {
  const res = await client(t, token).get(bell.path);
  expect([res.statusCode, res.body.slice(0, 300)]).toEqual([200, res.body.slice(0, 300)]);
  return res.json().data as Bell;
}

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, T2)).token;
  // Signed in, no code at all; and one holding the device and outbox codes but no data scope over any device.
  reader = await tenantUser(t, T, 'reader', []);
  watcher = await tenantUser(t, T, 'watcher', ['cameradevice', 'outbox']);
}, 600_000);
afterAll(async () => t?.close());

describe('notice content is sanitised on every save', () => {
  const hostile = [
    '<p>Hello <strong>all</strong></p>',
    '<script>window.__xss = 1</script>',
    '<img src="x" onerror="window.__xss = 2">',
    '<img src="https://example.com/a.png" onerror="window.__xss = 3" style="width:1px">',
    '<a href="javascript:alert(1)">bad link</a>',
    '<a href="https://example.com/" onclick="window.__xss = 4">good link</a>',
    '<svg onload="window.__xss = 5"><circle r="1"/></svg>',
    '<p style="background:url(javascript:alert(1))" class="x">styled</p>',
    '<iframe src="https://example.com"></iframe><style>p{}</style>',
  ].join('');

  it('keeps the rich text and drops scripts, handlers, javascript: links, SVG and style', async () => {
    const saved = await made(admin, { title: 'Hostile', content: hostile, status: 2 });
    const detail = (await client(t, admin).get(`${base}/detail?id=${saved.id}`)).json().data;
    for (const stored of [saved.content, detail.content]) {
      expect(stored).toContain('<p>Hello <strong>all</strong></p>');
      expect(stored).toContain('<img src="https://example.com/a.png" />');
      expect(stored).toContain(
        '<a href="https://example.com/" rel="noopener noreferrer" target="_blank">good link</a>',
      );
      expect(stored).toContain('<a>bad link</a>');
      expect(stored).toContain('<p>styled</p>');
      for (const gone of [
        'script',
        'onerror',
        'onclick',
        'onload',
        'javascript:',
        'svg',
        'style=',
        '<style',
        'iframe',
        '__xss',
      ])
        expect([gone, stored.toLowerCase().includes(gone)]).toEqual([gone, false]);
    }
    // An edit is sanitised too.
    const edited = await submit(admin, {
      ...detail,
      content: '<p onmouseover="x()">again</p><script>evil()</script>',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data.content).toBe('<p>again</p>');
  });

  it('keeps images from this server’s files and http(s) only, and links of http(s) and mailto only', () => {
    expect(
      sanitiseNotice('<img src="/files/a.png"><img src="data:image/png;base64,AAA"><img src="//evil/x.png">'),
    ).toBe('<img src="/files/a.png" />');
    expect(sanitiseNotice('<a href="mailto:a@b.c">m</a><a href="/relative">r</a><a href="vbscript:x">v</a>')).toBe(
      '<a href="mailto:a@b.c" rel="noopener noreferrer" target="_blank">m</a><a>r</a><a>v</a>',
    );
    expect(sanitiseNotice('<table><tr><td colspan="2" onclick="x">c</td></tr></table>')).toBe(
      '<table><tr><td colspan="2">c</td></tr></table>',
    );
  });

  it('refuses content that holds nothing once cleaned, in both languages', async () => {
    const zh = await submit(admin, { title: 'Empty', content: '<script>alert(1)</script>' });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().msg).toBe('内容清理后为空：请输入可显示的文字或图片');
    const en = await submit(admin, { title: 'Empty', content: '<svg onload="x"></svg>' }, 'en');
    expect(en.statusCode).toBe(400);
    expect(en.json().msg).toBe('Nothing of the content is left once cleaned: enter text or images that can be shown');
    const list = (await client(t, admin).get(`${base}/list?title=Empty`)).json().data;
    expect(list.total).toBe(0);
  });
});

describe('readers and the read view', () => {
  it('shows a published notice to any user of the tenant; drafts and later releases only to editors', async () => {
    const pub = await made(admin, { title: 'Published one', content: '<p>visible</p>', status: 2 });
    const draft = await made(admin, { title: 'Draft one', content: '<p>draft</p>', status: 1 });
    const later = await made(admin, {
      title: 'Later one',
      content: '<p>later</p>',
      status: 2,
      releaseTime: new Date(t.services.now().getTime() + 86_400_000).toISOString(),
    });
    const r = client(t, reader);
    const ok = await r.get(`${read.path}?id=${pub.id}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ title: 'Published one', content: '<p>visible</p>', status: 2 });
    for (const hidden of [draft.id, later.id]) {
      const res = await r.get(`${read.path}?id=${hidden}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('通知公告不存在');
    }
    // The editor reads the draft; the list and the writes need the notice codes.
    expect((await client(t, admin).get(`${read.path}?id=${draft.id}`)).statusCode).toBe(200);
    expect((await r.get(`${base}/list`)).statusCode).toBe(403);
    expect((await r.get(`${base}/detail?id=${pub.id}`)).statusCode).toBe(403);
    expect((await submit(reader, { title: 'Mine', content: '<p>x</p>' })).statusCode).toBe(403);
    const titles = (await bellOf(reader)).notices.map((n) => n.title);
    expect(titles).toContain('Published one');
    expect(titles).not.toContain('Draft one');
    expect(titles).not.toContain('Later one');
  });

  it('answers another tenant’s notice with a 404 on every path', async () => {
    const mine = await made(admin, { title: 'Tenant A only', content: '<p>a</p>', status: 2 });
    const b = client(t, other);
    for (const url of [`${read.path}?id=${mine.id}`, `${base}/detail?id=${mine.id}`])
      expect([url, (await b.get(url)).statusCode]).toEqual([url, 404]);
    expect((await b.post(`${base}/remove?ids=${mine.id}`)).statusCode).toBe(404);
    const edit = {
      id: mine.id,
      version: mine.version,
      title: 'x',
      category: 1,
      releaseTime: ago(0),
      content: '<p>x</p>',
    };
    expect((await b.post(`${base}/submit`, edit)).statusCode).toBe(404);
    expect((await bellOf(other)).notices.map((n) => n.title)).not.toContain('Tenant A only');
    expect((await client(t, admin).get(`${read.path}?id=${mine.id}`)).statusCode).toBe(200);
  });

  it('refuses a malformed id with a 400', async () => {
    const res = await client(t, reader).get(`${read.path}?id=abc`);
    expect(res.statusCode).toBe(400);
  });
});

describe('the bell', () => {
  beforeAll(async () => {
    const now = t.services.now();
    await withTenant(t.services.db, T, async (tx) => {
      const deviceId = newId();
      await tx.insert(cameraDevice).values({
        id: deviceId,
        tenantId: T,
        deviceCode: '11010100001310000001',
        name: 'Gate camera',
        deviceType: '131',
        regionCode: '110101',
      });
      await tx.insert(deviceStatusEvent).values({
        id: newId(),
        tenantId: T,
        deviceId,
        deviceCode: '11010100001310000001',
        regionCode: '110101',
        deviceType: '131',
        fromStatus: 1,
        toStatus: 0,
        at: now,
      });
      await tx.insert(outbox).values({
        id: newId(),
        tenantId: T,
        channel: 'sms',
        recipient: '13800000000',
        status: 3,
        attempts: 5,
        lastError: 'provider refused',
      });
    });
  });

  it('holds device events and failed deliveries only for those allowed to see them', async () => {
    const a = await bellOf(admin);
    expect(a.devices.map((d) => [d.deviceCode, d.name])).toEqual([['11010100001310000001', 'Gate camera']]);
    expect(a.failures.map((f) => [f.recipient, f.lastError])).toEqual([['13800000000', 'provider refused']]);
    const r = await bellOf(reader);
    expect([r.devices, r.failures]).toEqual([[], []]);
    // The outbox code opens the failures; the device code opens only the devices in the caller's data scope (none).
    const w = await bellOf(watcher);
    expect(w.failures).toHaveLength(1);
    expect(w.devices).toEqual([]);
    expect((await bellOf(other)).failures).toEqual([]);
  });

  it('counts what is unread per user, and opening the bell marks it seen', async () => {
    const before = await bellOf(reader);
    expect(before.seenUpTo).toBeNull();
    expect(before.unread).toBe(before.notices.length);
    expect(before.unread).toBeGreaterThan(0);
    const seen = await client(t, reader).post(bellSeen.path);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data.unread).toBe(0);
    const after = await bellOf(reader);
    expect(after.unread).toBe(0);
    expect(after.notices.every((n) => !n.unread)).toBe(true);
    // The admin's own count is untouched by the reader's mark.
    expect((await bellOf(admin)).unread).toBeGreaterThan(0);
    // A notice published later is unread again, for the reader alone.
    t.clock.offsetMs += 5_000;
    await made(admin, { title: 'Fresh one', content: '<p>new</p>', status: 2, releaseTime: ago(1_000) });
    const fresh = await bellOf(reader);
    expect(fresh.unread).toBe(1);
    expect(fresh.notices.find((n) => n.title === 'Fresh one')?.unread).toBe(true);
  });

  it('lists at most 10 notices, newest release first', async () => {
    for (let i = 0; i < 11; i++)
      await made(admin, { title: `Bulk ${i}`, content: '<p>b</p>', status: 2, releaseTime: ago(1_000 - i * 10) });
    const b = await bellOf(reader);
    expect(b.notices).toHaveLength(10);
    expect(b.notices[0].title).toBe('Bulk 10');
  });

  it('needs a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: bell.path })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: bellSeen.path })).statusCode).toBe(401);
  });
});
