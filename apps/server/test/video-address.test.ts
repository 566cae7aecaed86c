// Camera addresses (docs/devices.md "Camera addresses"): the server is never a scanner of its own network. A camera's
// stream and ONVIF addresses are resolved and checked on save and again at every play and PTZ command — never
// link-local, unspecified, multicast, the server's own ports; private ranges and loopback only inside the tenant's
// camera networks — and a client account reads one text for every failure of a source, where staff read the reason.
import http from 'node:http';
import net from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill } from '@atrium/contract';
import { loadConfig } from '../src/config.ts';
import { newId } from '../src/db/ids.ts';
import { user } from '../src/db/schema/index.ts';
import { clientInfo } from '../src/modules/client/table.ts';
import { seedIfEmpty } from '../src/seed/seed.ts';
import { cameraNetworksOf, checkCameraUrl } from '../src/modules/device/address.ts';
import { deviceTexts } from '../src/modules/device/messages.ts';
import { cameraDevice } from '../src/modules/device/table.ts';
import { ffmpegVersion, resolveFfmpeg } from '../src/modules/video/ffmpeg.ts';
import { failureTexts, videoTexts } from '../src/modules/video/messages.ts';
import { followsNoRedirect } from '../src/modules/video/streams.ts';
import type { Services } from '../src/platform/services.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import {
  ADMIN_PASSWORD,
  client,
  createTestApp,
  loginToken,
  provisionedTenant,
  userToken,
  type TestApp,
} from './harness.ts';

const T = '750001';
const api = '/api/blade-device-access/cameraDevice';
const networks = '/api/blade-device-access/cameraNetwork';
let t: TestApp;
let admin: string;
let supplier: string;
let serial = 0;
/** A port nothing listens on (found free, then closed). */
let closedPort: number;
/** Whether the ffmpeg the server runs can refuse an HTTP redirect (5.0 and later) and so plays HTTP sources. */
let http5 = false;
/** Answers 401 to everything (a camera refusing the login). */
let http401: http.Server;
/** Answers an HTML page (not a video). */
let httpPage: http.Server;
const portOf = (s: http.Server) => (s.address() as net.AddressInfo).port;

const camera = (over: Record<string, unknown> = {}) => ({
  deviceCode: `110101000013100${String(++serial).padStart(5, '0')}`,
  name: `addr cam ${serial}`,
  deviceType: '131',
  regionCode: '110101',
  ...over,
});
const save = (body: Record<string, unknown>, token = admin, lang?: 'en') =>
  client(t, token, lang).post(`${api}/save`, body);
async function saved(body: Record<string, unknown>, token = admin) {
  const res = await save(body, token);
  expect([res.statusCode, res.body.slice(0, 300)]).toEqual([200, res.body.slice(0, 300)]);
  return res.json().data as { id: string };
}
/** Whether a camera of that name exists (a refused save wrote nothing). */
async function exists(name: string) {
  const rows = await withTenant(t.services.db, T, (tx) =>
    tx
      .select({ id: cameraDevice.id })
      .from(cameraDevice)
      .where(and(eq(cameraDevice.tenantId, T), eq(cameraDevice.name, name))),
  );
  return rows.length > 0;
}
async function listNetwork(cidr: string) {
  const res = await client(t, admin).post(`${networks}/submit`, { name: `net ${cidr}`, cidr });
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return res.json().data as { id: string; cidr: string };
}
const unlist = (id: string) => client(t, admin).post(`${networks}/remove?ids=${id}`);
const play = (token: string, id: string, lang?: 'en') =>
  client(t, token, lang).get(`/api/video/queryDeviceVideo?deviceInfoId=${id}`);
const ptz = (token: string, id: string) => client(t, token).get(`/api/video/ptz?deviceInfoId=${id}&command=up`);
const answer = (res: { statusCode: number; json: () => { msg: string } }) => [res.statusCode, res.json().msg];

async function roleId(alias: string) {
  const res = await client(t, admin).get(`/api/blade-system/role/list?roleAlias=${alias}`);
  const list = res.json().data as
    { id: string; roleAlias: string }[] | { records: { id: string; roleAlias: string }[] };
  return (Array.isArray(list) ? list : list.records).find((r) => r.roleAlias === alias)!.id;
}

beforeAll(async () => {
  const found = resolveFfmpeg(process.env.ATRIUM_FFMPEG);
  http5 = followsNoRedirect(found.found ? ((await ffmpegVersion(found.path))?.major ?? null) : null);
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise((r) => probe.close(r));
  http401 = http.createServer((_req, res) => {
    res.writeHead(401, { 'www-authenticate': 'Basic realm="cam"' });
    res.end('no');
  });
  httpPage = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>router login</body></html>');
  });
  await new Promise<void>((r) => http401.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => httpPage.listen(0, '127.0.0.1', r));
  const base = loadConfig({ NODE_ENV: 'test', ATRIUM_FFMPEG: process.env.ATRIUM_FFMPEG }).video;
  t = await createTestApp({ video: { ...base, startSeconds: 6 } });
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  // A client account (supplier admin, data scope 7 "own client") of an approved client.
  const clientId = newId();
  await withTenant(t.services.db, T, (tx) =>
    tx.insert(clientInfo).values({
      id: clientId,
      tenantId: T,
      clientName: 'outside company',
      clientType: 1,
      creditCode: '91110108MA01ABCD0B',
      contactName: 'contact',
      operatorTel: '13800000031',
      regionCode: '110101',
      appClientAccount: '13800000031',
      status: 2,
    }),
  );
  const made = await client(t, admin).post('/api/blade-user/submit', {
    account: 'addr_supplier',
    realName: 'supplier',
    password: 'Staff#2026x',
    roleIds: [await roleId('supplier_admin')],
    regionCode: '110101',
  });
  expect(made.statusCode).toBe(200);
  await withTenant(t.services.db, T, (tx) =>
    tx
      .update(user)
      .set({ clientInfoId: clientId })
      .where(and(eq(user.tenantId, T), eq(user.account, 'addr_supplier'))),
  );
  t.services.cache.clearAll();
  supplier = await userToken(t, T, 'addr_supplier', 'Staff#2026x');
}, 60_000);

afterAll(async () => {
  await t?.close();
  http401?.close();
  httpPage?.close();
});

describe('on save', () => {
  it('never link-local, unspecified or multicast; loopback and private only in a listed network', async () => {
    const cases: [Record<string, unknown>, string, { zh: string; en: string }][] = [
      [
        { streamUrl: 'rtsp://127.0.0.1:554/live' },
        'streamUrl',
        fill(deviceTexts.addressPrivate, { address: '127.0.0.1' }),
      ],
      [{ streamUrl: 'rtsp://[::1]:554/live' }, 'streamUrl', fill(deviceTexts.addressPrivate, { address: '::1' })],
      [
        { streamUrl: 'rtsp://u:p@[::ffff:127.0.0.1]/live' },
        'streamUrl',
        fill(deviceTexts.addressPrivate, { address: '127.0.0.1' }),
      ],
      [
        { streamUrl: 'http://169.254.169.254/latest' },
        'streamUrl',
        fill(deviceTexts.addressForbidden, { address: '169.254.169.254' }),
      ],
      [
        { streamUrl: 'rtsp://0.0.0.0:554/live' },
        'streamUrl',
        fill(deviceTexts.addressForbidden, { address: '0.0.0.0' }),
      ],
      [
        { streamUrl: 'rtsp://224.0.0.251/live' },
        'streamUrl',
        fill(deviceTexts.addressForbidden, { address: '224.0.0.251' }),
      ],
      [{ streamUrl: 'rtsp://[ff02::1]/live' }, 'streamUrl', fill(deviceTexts.addressForbidden, { address: 'ff02::1' })],
      [{ streamUrl: 'rtsp://10.20.1.5/live' }, 'streamUrl', fill(deviceTexts.addressPrivate, { address: '10.20.1.5' })],
      [
        { onvifUrl: 'http://192.168.1.64/onvif/device_service' },
        'onvifUrl',
        fill(deviceTexts.addressPrivate, { address: '192.168.1.64' }),
      ],
      [
        { onvifUrl: 'http://169.254.0.7/onvif/device_service' },
        'onvifUrl',
        fill(deviceTexts.addressForbidden, { address: '169.254.0.7' }),
      ],
    ];
    for (const [over, field, text] of cases) {
      const body = camera(over);
      const res = await save(body);
      expect([JSON.stringify(over), res.statusCode, res.json().msg]).toEqual([JSON.stringify(over), 400, text.zh]);
      expect(res.json().data).toEqual([{ field, message: text.zh }]);
      expect(await exists(String(body.name))).toBe(false);
    }
    // `localhost` is a name: what it resolves to (loopback) is what counts.
    const local = await save(camera({ streamUrl: 'rtsp://localhost:8554/live' }), admin, 'en');
    expect(local.statusCode).toBe(400);
    expect(local.json().msg).toMatch(/^The address (127\.0\.0\.1|::1) is private or loopback/);
    // A name that does not resolve cannot be checked: refused.
    const nowhere = await save(camera({ streamUrl: 'rtsp://cam.invalid/live' }), admin, 'en');
    expect(answer(nowhere)).toEqual([400, fill(deviceTexts.addressUnresolved, { host: 'cam.invalid' }).en]);
    // Public addresses need no network.
    await saved(camera({ streamUrl: 'rtsp://203.0.112.9:554/live', onvifUrl: 'http://[2606:4700::1]/onvif' }));
  });

  it('a private address is accepted inside a listed network only; the server’s ports never', async () => {
    const body = camera({ streamUrl: 'rtsp://admin:pw@10.20.1.5:554/live' });
    expect((await save(body)).statusCode).toBe(400);
    const net10 = await listNetwork('10.20.9.9/16');
    expect(net10.cidr).toBe('10.20.0.0/16'); // normalised to its network
    await saved(body);
    expect((await save(camera({ streamUrl: 'rtsp://10.21.0.1/live' }))).statusCode).toBe(400);

    const loop = await listNetwork('127.0.0.0/8');
    await saved(camera({ streamUrl: 'rtsp://127.0.0.1:8554/live', onvifUrl: 'http://127.0.0.1:8000/onvif' }));
    // Even with loopback listed: never the server's HTTP port, on any address.
    const own = t.config.port;
    for (const url of [`http://127.0.0.1:${own}/api/x`, `rtsp://10.20.1.5:${own}/live`]) {
      const res = await save(camera({ streamUrl: url }));
      expect([url, ...answer(res)]).toEqual([url, 400, fill(deviceTexts.addressServerPort, { port: own }).zh]);
    }
    // ::1 is not in 127.0.0.0/8: a name resolving to both needs both listed.
    expect((await save(camera({ streamUrl: 'rtsp://[::1]:8554/live' }))).statusCode).toBe(400);
    // A range that is never a camera's cannot be listed.
    for (const cidr of ['169.254.0.0/16', '224.0.0.0/4', '0.0.0.0/0', 'fe80::/10']) {
      const res = await client(t, admin).post(`${networks}/submit`, { name: 'x', cidr });
      expect([cidr, ...answer(res)]).toEqual([cidr, 400, deviceTexts.cidrNever.zh]);
    }
    const bad = await client(t, admin).post(`${networks}/submit`, { name: 'x', cidr: '10.0.0.0/33' });
    expect(answer(bad)).toEqual([400, deviceTexts.cidrBad.zh]);
    await unlist(loop.id);
    await unlist(net10.id);
  });

  it('the MQTT port is the server’s too (a unit check of the rule)', async () => {
    // A stand-in with the only part of Services the rule reads (its ports).
    const s = { config: { port: 8080, mqtt: { port: 1884 } } } as unknown as Services;
    const loop = ['127.0.0.0/8'];
    expect(await checkCameraUrl(s, T, 'rtsp://127.0.0.1:1884/x', loop)).toMatchObject({
      ok: false,
      reason: 'serverPort',
    });
    expect(await checkCameraUrl(s, T, 'http://127.0.0.1/x', loop)).toMatchObject({
      ok: true,
      pinned: 'http://127.0.0.1/x',
    });
    // A name is pinned to the address checked (no second resolution by ffmpeg).
    const pinned = await checkCameraUrl(s, T, 'rtsp://u:p@localhost:8554/x', ['127.0.0.0/8', '::1/128']);
    expect(pinned).toMatchObject({ ok: true });
    expect((pinned as { pinned: string }).pinned).toMatch(/^rtsp:\/\/u:p@(127\.0\.0\.1|\[::1\]):8554\/x$/);
  });

  it('a client account reads one text for every refused address', async () => {
    for (const streamUrl of ['rtsp://127.0.0.1/live', 'rtsp://169.254.1.1/live', 'rtsp://cam.invalid/x']) {
      const zh = await save(camera({ streamUrl }), supplier);
      expect([streamUrl, ...answer(zh)]).toEqual([streamUrl, 400, deviceTexts.addressNotAllowed.zh]);
      const en = await save(camera({ streamUrl }), supplier, 'en');
      expect([streamUrl, ...answer(en)]).toEqual([streamUrl, 400, deviceTexts.addressNotAllowed.en]);
    }
  });
});

describe('at play and PTZ', () => {
  it('is checked again: a camera saved while its network was listed is refused once it is not', async () => {
    const loop = await listNetwork('127.0.0.0/8');
    const cam = await saved(
      camera({
        streamUrl: `rtsp://127.0.0.1:${closedPort}/live`,
        ptz: 1,
        onvifUrl: `http://127.0.0.1:${closedPort}/onvif/device_service`,
      }),
    );
    // Listed: the server tries the source (nothing listens there).
    expect(answer(await play(admin, cam.id))).toEqual([400, failureTexts.unreachable.zh]);
    expect(answer(await ptz(admin, cam.id))).toEqual([400, videoTexts.ptzUnreachable.zh]);
    await unlist(loop.id);
    const refused = fill(deviceTexts.addressPrivate, { address: '127.0.0.1' }).zh;
    expect(answer(await play(admin, cam.id))).toEqual([400, refused]);
    expect(answer(await ptz(admin, cam.id))).toEqual([400, refused]);
  });

  it('staff read why a source does not play; a client account reads one text for refused, 401, not a video', async () => {
    const loop = await listNetwork('127.0.0.0/8');
    const sources = {
      refused: `rtsp://127.0.0.1:${closedPort}/live`,
      unauthorized: `http://127.0.0.1:${portOf(http401)}/video.ts`,
      page: `http://127.0.0.1:${portOf(httpPage)}/index.html`,
    };
    const staffSaw: string[] = [];
    const ids: Record<string, string> = {};
    for (const [what, streamUrl] of Object.entries(sources)) {
      const cam = await saved(camera({ streamUrl, ptz: 1, onvifUrl: streamUrl.replace(/^rtsp/, 'http') }), supplier);
      ids[what] = cam.id;
      const asStaff = await play(admin, cam.id);
      expect(asStaff.statusCode).toBe(400);
      staffSaw.push(asStaff.json().msg);
      if (what === 'refused') expect(asStaff.json().msg).toBe(failureTexts.unreachable.zh);
      // An ffmpeg before 5.0 plays no HTTP source at all (it cannot refuse a redirect): staff are told that instead.
      if (what !== 'refused' && !http5) expect(asStaff.json().msg).toBe(failureTexts.httpNeedsFfmpeg5.zh);
      if (what === 'unauthorized' && http5) expect(asStaff.json().msg).toBe(failureTexts.unauthorized.zh);
      expect([what, ...answer(await play(supplier, cam.id))]).toEqual([what, 400, videoTexts.cannotPlay.zh]);
      expect([what, ...answer(await play(supplier, cam.id, 'en'))]).toEqual([what, 400, 'Cannot play this source']);
      expect([what, ...answer(await ptz(supplier, cam.id))]).toEqual([what, 400, videoTexts.cannotPtz.zh]);
    }
    // Staff told the three apart (two, where HTTP sources are not played at all).
    expect(new Set(staffSaw).size).toBe(http5 ? 3 : 2);
    // An address refused at play: the same one text for the client account.
    await unlist(loop.id);
    expect(answer(await play(supplier, ids.refused))).toEqual([400, videoTexts.cannotPlay.zh]);
    expect(answer(await ptz(supplier, ids.refused))).toEqual([400, videoTexts.cannotPtz.zh]);
  }, 60_000);
});

describe('redirects', () => {
  it('an HTTP source’s redirect is not followed: nothing reaches the address it names', async () => {
    let hits = 0;
    const target = http.createServer((_req, res) => {
      hits++;
      res.end('secret');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const redirect = http.createServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${portOf(target)}/internal` });
      res.end();
    });
    await new Promise<void>((r) => redirect.listen(0, '127.0.0.1', r));
    const loop = await listNetwork('127.0.0.0/8');
    try {
      const cam = await saved(camera({ streamUrl: `http://127.0.0.1:${portOf(redirect)}/video` }));
      const played = await play(admin, cam.id);
      expect(played.statusCode).toBe(400);
      if (!http5) expect(played.json().msg).toBe(failureTexts.httpNeedsFfmpeg5.zh);
      expect(hits).toBe(0);
    } finally {
      await unlist(loop.id);
      target.close();
      redirect.close();
    }
  });
});

describe('the local demo', () => {
  it('a new database under NODE_ENV=development lists loopback for tenant 000000; tests do not', async () => {
    const fresh = await createTestApp({}, undefined, { seed: false });
    try {
      await seedIfEmpty(fresh.services.db, { adminPassword: ADMIN_PASSWORD, demoCameraNetwork: true });
      expect(await cameraNetworksOf(fresh.services, '000000')).toEqual(['127.0.0.0/8']);
    } finally {
      await fresh.close();
    }
    expect(await cameraNetworksOf(t.services, '000000')).toEqual([]);
  }, 60_000);
});
