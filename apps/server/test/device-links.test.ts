// Camera ↔ NVR channel links and channel status (docs/devices.md "Links between cameras and channels", "Channel
// status"): the camera's (nvrId, channelNo) is the truth and the channel's cameraId follows it whichever path writes
// (camera save / submit / remove, saveNvrChannelInfo, channel submit / remove, a device's channel list); the rules
// and their messages; two writers on one channel; channels reading their NVR's status through MQTT messages, the
// offline sweep and disable / enable, with the statistics counters equal to a direct count. Real database (PGlite,
// or PostgreSQL with DATABASE_URL).
import { and, eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill } from '@atrium/contract';
import { withTenant } from '../src/platform/tenant-db.ts';
import { deviceTexts as texts } from '../src/modules/device/messages.ts';
import { cameraDevice, nvrChannel } from '../src/modules/device/table.ts';
import { deviceAccessOf } from '../src/modules/device-access/module.ts';
import { signedMessage } from '../src/modules/device-access/signing.ts';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';

const T = '760101';
const OTHER = '760102';
const api = '/api/blade-device-access/cameraDevice';
const channelApi = '/api/blade-device-access/nvrchannelinfo';
let t: TestApp;
let admin: string;
let other: string;
let regionB: string;
let pub: mqtt.MqttClient;
let serial = 0;

type Device = { id: string; deviceCode: string; name: string; version: number; deviceSecret?: string };

const codeOf = (district: string, type: string) => `${district}0000${type}0${String(++serial).padStart(6, '0')}`;
const body = (o: { type?: string; district?: string; name?: string } = {}) => {
  const district = o.district ?? '110101';
  const deviceType = o.type ?? '131';
  return {
    deviceCode: codeOf(district, deviceType),
    name: o.name ?? `dev ${serial}`,
    deviceType,
    regionCode: district,
  };
};

async function add(o: { type?: string; district?: string; name?: string } = {}, extra = {}, token = admin) {
  const res = await client(t, token).post(`${api}/save`, { ...body(o), ...extra });
  expect([res.statusCode, res.body.slice(0, 300)]).toEqual([200, res.body.slice(0, 300)]);
  return res.json().data as Device;
}
/** A camera's submit: its identity as added plus the changes. */
const submit = (d: Device, change: Record<string, unknown>, token = admin, lang?: 'en') =>
  client(t, token, lang).post(`${api}/submit`, {
    id: d.id,
    deviceCode: d.deviceCode,
    name: d.name,
    deviceType: d.deviceCode.slice(10, 13),
    regionCode: d.deviceCode.slice(0, 6),
    ...change,
  });
const replace = (nvrDeviceId: string, channels: object[], token = admin) =>
  client(t, token).post(`${channelApi}/saveNvrChannelInfo`, { nvrDeviceId, channels });
const ch = (no: number, cameraId?: string | null) => ({
  channelNo: no,
  name: `ch${no}`,
  ...(cameraId !== undefined ? { cameraId } : {}),
});

/** Every link as both sides store it: the cameras naming the NVR and the NVR's live channels. */
async function links(nvrId: string) {
  return withTenant(t.services.db, T, async (tx) => {
    const cams = await tx
      .select({ id: cameraDevice.id, no: cameraDevice.channelNo })
      .from(cameraDevice)
      .where(and(eq(cameraDevice.nvrId, nvrId), eq(cameraDevice.isDeleted, 0)));
    const chans = await tx
      .select({ no: nvrChannel.channelNo, cameraId: nvrChannel.cameraId, status: nvrChannel.status })
      .from(nvrChannel)
      .where(and(eq(nvrChannel.nvrDeviceId, nvrId), eq(nvrChannel.isDeleted, 0)))
      .orderBy(nvrChannel.channelNo);
    return {
      /** channel number → camera id, from the cameras (the truth). */
      cameras: Object.fromEntries(cams.filter((c) => c.no != null).map((c) => [c.no, c.id])),
      /** channel number → camera id, from the channels (derived). */
      channels: Object.fromEntries(chans.filter((c) => c.cameraId).map((c) => [c.no, c.cameraId])),
      behind: cams.map((c) => c.id).sort(),
      status: Object.fromEntries(chans.map((c) => [c.no, c.status])),
    };
  });
}
/** Both sides agree; answers the links. */
async function consistent(nvrId: string) {
  const l = await links(nvrId);
  const channelNos = new Set(Object.keys(l.status));
  const shown = Object.fromEntries(Object.entries(l.cameras).filter(([no]) => channelNos.has(no)));
  expect(l.channels).toEqual(shown);
  return l;
}

async function channelRows(nvrId: string) {
  const res = await client(t, admin).get(`${channelApi}/list?nvrDeviceId=${nvrId}&size=100`);
  expect(res.statusCode).toBe(200);
  type Channel = { id: string; version: number; channelNo: number; status: number; cameraId: string | null };
  return (res.json().data.records as Channel[]).sort((a, b) => a.channelNo - b.channelNo);
}

async function staff(account: string, alias: string, regionCode: string) {
  const roles = (await client(t, admin).get(`/api/blade-system/role/list?roleAlias=${alias}`)).json().data;
  const rows = (Array.isArray(roles) ? roles : roles.records) as { id: string; roleAlias: string }[];
  const res = await client(t, admin).post('/api/blade-user/submit', {
    account,
    realName: account.slice(-10),
    password: 'Staff#2026x',
    roleIds: [rows.find((r) => r.roleAlias === alias)!.id],
    regionCode,
  });
  expect(res.statusCode).toBe(200);
  return userToken(t, T, account, 'Staff#2026x');
}

beforeAll(async () => {
  // One anonymous connection publishes for every device (ATRIUM_MQTT_ANONYMOUS=on; docs/devices.md "Device access").
  t = await createTestApp({ mqtt: { port: 0, portExplicit: true, heartbeatSeconds: 60, anonymous: true } });
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, OTHER)).token;
  regionB = await staff('links_region_b', 'region_admin', '110102');
  pub = await mqtt.connectAsync(`mqtt://127.0.0.1:${deviceAccessOf(t.services)!.intake!.port!}`);
});
afterAll(async () => {
  await pub?.endAsync();
  await t?.close();
});

describe('one link, kept from the camera', () => {
  it('a camera naming (NVR, channel) shows on the channel; moving, leaving the NVR and removal follow', async () => {
    const nvr = await add({ type: '118' });
    expect((await replace(nvr.id, [ch(1), ch(2), ch(3)])).statusCode).toBe(200);
    const cam = await add({}, { nvrId: nvr.id, channelNo: 1 });
    expect((await consistent(nvr.id)).channels).toEqual({ 1: cam.id });
    expect((await channelRows(nvr.id)).map((c) => c.cameraId)).toEqual([cam.id, null, null]);

    expect((await submit(cam, { nvrId: nvr.id, channelNo: 2 })).statusCode).toBe(200);
    expect((await consistent(nvr.id)).channels).toEqual({ 2: cam.id });
    // Leaving the NVR without naming the channel leaves the channel too.
    const left = await submit(cam, { nvrId: null });
    expect([left.statusCode, left.json().data.channelNo]).toEqual([200, null]);
    expect(await consistent(nvr.id)).toMatchObject({ channels: {}, behind: [] });

    // A channel number the NVR does not list (yet): the camera keeps it, the channel shows it when listed.
    expect((await submit(cam, { nvrId: nvr.id, channelNo: 7 })).statusCode).toBe(200);
    expect((await consistent(nvr.id)).channels).toEqual({});
    await replace(nvr.id, [ch(1), ch(2), ch(3), ch(7)]);
    expect((await consistent(nvr.id)).channels).toEqual({ 7: cam.id });
    // A list without 7 drops the channel, not the camera's link; back in the list, the channel shows it again.
    await replace(nvr.id, [ch(1), ch(2), ch(3)]);
    expect((await consistent(nvr.id)).cameras).toEqual({ 7: cam.id });
    await replace(nvr.id, [ch(1), ch(2), ch(3), ch(7)]);
    expect((await consistent(nvr.id)).channels).toEqual({ 7: cam.id });

    expect((await client(t, admin).post(`${api}/remove?ids=${cam.id}`)).statusCode).toBe(200);
    expect((await consistent(nvr.id)).channels).toEqual({});
  });
});

describe('links written from the channel side', () => {
  let nvr: Device;
  let a: Device;
  let b: Device;
  beforeAll(async () => {
    nvr = await add({ type: '118' });
    a = await add({ name: 'cam A' });
    b = await add({ name: 'cam B' });
  });

  it('saveNvrChannelInfo: a cameraId writes the camera’s link, null clears it, a swap works, absent keeps it', async () => {
    const first = await replace(nvr.id, [ch(1, a.id), ch(2, b.id), ch(3)]);
    expect(first.statusCode).toBe(200);
    expect((await consistent(nvr.id)).cameras).toEqual({ 1: a.id, 2: b.id });
    const swap = await replace(nvr.id, [ch(1, b.id), ch(2, a.id), ch(3)]);
    expect([swap.statusCode, swap.json().data.updated]).toEqual([200, 2]);
    expect((await consistent(nvr.id)).cameras).toEqual({ 1: b.id, 2: a.id });
    // Absent: kept; the camera that leaves channel 2 for 3 leaves 2 unlinked.
    await replace(nvr.id, [ch(1), ch(2), ch(3, a.id)]);
    expect((await consistent(nvr.id)).cameras).toEqual({ 1: b.id, 3: a.id });
    // null: the camera loses its channel number and stays behind the NVR.
    await replace(nvr.id, [ch(1, null), ch(2), ch(3)]);
    const l = await consistent(nvr.id);
    expect(l.cameras).toEqual({ 3: a.id });
    expect(l.behind).toEqual([a.id, b.id].sort());
    const detail = (await client(t, admin).get(`${api}/detail?id=${b.id}`)).json().data;
    expect([detail.nvrId, detail.channelNo]).toEqual([nvr.id, null]);
  });

  it('refuses one camera on two channels, an NVR as a camera, another tenant’s camera and one outside the scope', async () => {
    const twice = await replace(nvr.id, [ch(1, a.id), ch(2, a.id)]);
    expect([twice.statusCode, twice.json().msg]).toEqual([400, fill(texts.cameraTwice, { a: 1, b: 2 }).zh]);
    const other118 = await add({ type: '118' });
    const isNvr = await replace(nvr.id, [ch(1, other118.id)]);
    expect([isNvr.statusCode, isNvr.json().msg]).toEqual([400, texts.channelCameraIsNvr.zh]);
    const theirs = await add({}, {}, other);
    const foreign = await replace(nvr.id, [ch(1, theirs.id)]);
    expect([foreign.statusCode, foreign.json().msg]).toEqual([404, texts.cameraUnknown.zh]);
    // A region admin of 110102 links its own NVR's channel to a camera of 110101: not a camera it sees.
    const nvrB = await add({ type: '118', district: '110102' }, {}, regionB);
    const camB = await add({ district: '110102' }, {}, regionB);
    const outside = await replace(nvrB.id, [ch(1, a.id)], regionB);
    expect([outside.statusCode, outside.json().msg]).toEqual([404, texts.cameraUnknown.zh]);
    expect((await replace(nvrB.id, [ch(1, camB.id)], regionB)).statusCode).toBe(200);
    // Nothing of the refused calls was written.
    expect((await consistent(nvr.id)).cameras).toEqual({ 3: a.id });
  });

  it('channel submit links and unlinks; a channel removed by staff unlinks its camera, which stays behind the NVR', async () => {
    const rows = await channelRows(nvr.id);
    const one = rows.find((r) => r.channelNo === 1)!;
    const linked = await client(t, admin).post(`${channelApi}/submit`, { id: one.id, cameraId: b.id });
    expect([linked.statusCode, linked.json().data.cameraId]).toEqual([200, b.id]);
    expect((await consistent(nvr.id)).cameras).toEqual({ 1: b.id, 3: a.id });
    // Linking a camera already on another channel moves it.
    const moved = await client(t, admin).post(`${channelApi}/submit`, { id: one.id, cameraId: a.id });
    expect(moved.statusCode).toBe(200);
    expect((await consistent(nvr.id)).cameras).toEqual({ 1: a.id });
    const cleared = await client(t, admin).post(`${channelApi}/submit`, { id: one.id, cameraId: null });
    expect([cleared.statusCode, cleared.json().data.cameraId]).toEqual([200, null]);
    expect((await consistent(nvr.id)).cameras).toEqual({});
    const theirs = await add({}, {}, other);
    const foreign = await client(t, admin).post(`${channelApi}/submit`, { id: one.id, cameraId: theirs.id });
    expect([foreign.statusCode, foreign.json().msg]).toEqual([404, texts.cameraUnknown.zh]);

    await client(t, admin).post(`${channelApi}/submit`, { id: one.id, cameraId: b.id });
    expect((await client(t, admin).post(`${channelApi}/remove?ids=${one.id}`)).statusCode).toBe(200);
    const l = await consistent(nvr.id);
    expect(l.cameras).toEqual({});
    expect(l.behind).toContain(b.id);
  });
});

describe('the rules of a link', () => {
  let nvr: Device;
  beforeAll(async () => {
    nvr = await add({ type: '118', name: 'NVR rules' });
    await replace(nvr.id, [ch(1), ch(2)]);
  });

  it('not itself, not a non-NVR, not another tenant’s or an unseen NVR, not an NVR behind an NVR', async () => {
    const cam = await add();
    const self = await submit(cam, { nvrId: cam.id });
    expect([self.statusCode, self.json().msg]).toEqual([400, texts.nvrSelf.zh]);
    expect((await submit(cam, { nvrId: cam.id }, admin, 'en')).json().msg).toBe(texts.nvrSelf.en);
    const plain = await add();
    const notNvr = await submit(cam, { nvrId: plain.id, channelNo: 1 });
    expect([notNvr.statusCode, notNvr.json().msg]).toEqual([400, texts.nvrNotNvr.zh]);
    const theirs = await add({ type: '118' }, {}, other);
    const foreign = await submit(cam, { nvrId: theirs.id, channelNo: 1 });
    expect([foreign.statusCode, foreign.json().msg]).toEqual([404, texts.nvrUnknown.zh]);
    // A region admin of 110102 does not see the NVR of 110101.
    const mine = await add({ district: '110102' }, {}, regionB);
    const unseen = await submit(mine, { nvrId: nvr.id, channelNo: 2 }, regionB);
    expect([unseen.statusCode, unseen.json().msg]).toEqual([404, texts.nvrUnknown.zh]);
    const nvr2 = await add({ type: '118' });
    const nested = await submit(nvr2, { nvrId: nvr.id });
    expect([nested.statusCode, nested.json().msg]).toEqual([400, texts.nvrBehindNvr.zh]);
    expect((await consistent(nvr.id)).behind).toEqual([]);
  });

  it('one camera per channel: the second is refused naming the first; the database holds it too', async () => {
    const first = await add({ name: 'holder' }, { nvrId: nvr.id, channelNo: 1 });
    const second = await client(t, admin).post(`${api}/save`, { ...body(), nvrId: nvr.id, channelNo: 1 });
    expect([second.statusCode, second.json().msg]).toEqual([
      400,
      fill(texts.channelTaken, { no: 1, name: 'holder' }).zh,
    ]);
    const en = await client(t, admin, 'en').post(`${api}/save`, { ...body(), nvrId: nvr.id, channelNo: 1 });
    expect(en.json().msg).toBe(fill(texts.channelTaken, { no: 1, name: 'holder' }).en);
    // Not a check only: a row written past the API meets the partial unique index (live rows).
    const direct = withTenant(t.services.db, T, (tx) =>
      tx.execute(sql`update camera_device set nvr_id = ${nvr.id}, channel_no = 1
        where id = (select id from camera_device where tenant_id = ${T} and device_type = '131' and nvr_id is null
          and is_deleted = 0 limit 1)`),
    );
    const err = (await direct.catch((e: unknown) => e)) as { code?: string; constraint?: string; cause?: object };
    expect({ ...err, ...err.cause }).toMatchObject({ code: '23505', constraint: 'camera_device_channel_uq' });
    // A removed camera frees its channel.
    await client(t, admin).post(`${api}/remove?ids=${first.id}`);
    expect((await client(t, admin).post(`${api}/save`, { ...body(), nvrId: nvr.id, channelNo: 1 })).statusCode).toBe(
      200,
    );
    await consistent(nvr.id);
  });

  it('an NVR with channels or cameras behind it is not removed; once empty it is, and is no longer named', async () => {
    const lone = await add({ type: '118' });
    await replace(lone.id, [ch(1)]);
    const cam = await add({}, { nvrId: lone.id, channelNo: 1 });
    const refused = await client(t, admin).post(`${api}/remove?ids=${lone.id}`);
    expect([refused.statusCode, refused.json().msg]).toEqual([400, fill(texts.nvrHasChildren, { name: lone.name }).zh]);
    await replace(lone.id, []);
    expect((await client(t, admin).post(`${api}/remove?ids=${lone.id}`)).statusCode).toBe(400);
    await client(t, admin).post(`${api}/remove?ids=${cam.id}`);
    expect((await client(t, admin).post(`${api}/remove?ids=${lone.id}`)).statusCode).toBe(200);
    const gone = await client(t, admin).post(`${api}/save`, { ...body(), nvrId: lone.id });
    expect([gone.statusCode, gone.json().msg]).toEqual([404, texts.nvrUnknown.zh]);
  });
});

describe('two writers on one channel', () => {
  it('two cameras linked to one channel at once: one wins, the other 400/409, never 500 nor two links', async () => {
    const nvr = await add({ type: '118' });
    await replace(nvr.id, [ch(1), ch(2), ch(3), ch(4)]);
    const race = [fill(texts.channelTakenRace, {}).zh];
    for (const no of [1, 2, 5, 6]) {
      const x = await add({ name: `x${no}` });
      const y = await add({ name: `y${no}` });
      const answers = await Promise.all([
        submit(x, { nvrId: nvr.id, channelNo: no }),
        submit(y, { nvrId: nvr.id, channelNo: no }),
      ]);
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes[0]).toBe(200);
      expect([400, 409]).toContain(codes[1]);
      const loser = answers.find((a) => a.statusCode !== 200)!;
      const winner = answers[0].statusCode === 200 ? x : y;
      expect([...race, fill(texts.channelTaken, { no, name: winner.name }).zh]).toContain(loser.json().msg);
      expect((await consistent(nvr.id)).cameras[no]).toBe(winner.id);
    }
    // A camera's save and the channel list naming another camera for the same channel: the list locks the NVR, the
    // save waits for it (or the other way round); the list is the later word, or the save finds the channel taken.
    for (const no of [3, 4]) {
      const x = await add({ name: `cx${no}` });
      const y = await add({ name: `cy${no}` });
      const [save, list] = await Promise.all([
        submit(x, { nvrId: nvr.id, channelNo: no }),
        replace(
          nvr.id,
          [1, 2, 3, 4].map((n) => (n === no ? ch(n, y.id) : ch(n))),
        ),
      ]);
      expect(list.statusCode).toBe(200);
      if (save.statusCode !== 200)
        expect([save.statusCode, save.json().msg]).toEqual([400, fill(texts.channelTaken, { no, name: y.name }).zh]);
      expect((await consistent(nvr.id)).cameras[no]).toBe(y.id);
    }
  });
});

describe('channel status follows its NVR', () => {
  const access = () => deviceAccessOf(t.services)!.access;
  const now = () => t.services.now().getTime();
  let ts = 0;
  async function send(d: Device, msg: { online?: boolean; channels?: { channelNo: number; name?: string }[] }) {
    ts = Math.max(ts + 1, now() - 1000);
    const m = signedMessage(d.deviceSecret!, T, d.deviceCode, { online: msg.online ?? true, ts, ...msg });
    await pub.publishAsync(m.topic, m.payload, { qos: 1 });
  }
  const statuses = async (d: Device) => (await channelRows(d.id)).map((c) => c.status);
  const nvrStatus = async (d: Device) => (await client(t, admin).get(`${api}/detail?id=${d.id}`)).json().data.status;

  /** The statistics counters of the tenant against a direct count (devices with online, channels). */
  async function countersMatch() {
    const rows = async (q: ReturnType<typeof sql>) => {
      const r = await withTenant(t.services.db, T, (tx) => tx.execute(q));
      return (((r as { rows?: unknown[] }).rows ?? r) as Record<string, unknown>[])
        .map((x) => Object.values(x).map(String).join('/'))
        .sort();
    };
    expect(
      await rows(sql`select district, device_type, total, online from stat_device_counter
        where tenant_id = ${T} and (total <> 0 or online <> 0)`),
    ).toEqual(
      await rows(sql`select left(region_code, 6) as d, device_type, count(*) as n, count(*) filter (where status = 1) as o
        from camera_device where tenant_id = ${T} and is_deleted = 0 group by 1, 2`),
    );
    expect(
      await rows(sql`select district, total from stat_channel_counter where tenant_id = ${T} and total <> 0`),
    ).toEqual(
      await rows(sql`select coalesce(left(region_code, 6), '') as d, count(*) as n from nvr_channel
        where tenant_id = ${T} and is_deleted = 0 group by 1`),
    );
  }

  it('MQTT: channels of a new list read online with their NVR, offline when it reports offline, online again', async () => {
    const nvr = await add({ type: '118' });
    const quiet = await add({ type: '118' });
    await replace(quiet.id, [ch(1)]);
    await send(nvr, { channels: [{ channelNo: 1 }, { channelNo: 2, name: 'Gate' }] });
    await access().flush();
    expect(await nvrStatus(nvr)).toBe(1);
    expect(await statuses(nvr)).toEqual([1, 1]);
    // A channel added while the NVR is online starts online.
    await replace(nvr.id, [ch(1), ch(2), ch(3)]);
    expect(await statuses(nvr)).toEqual([1, 1, 1]);
    const versions = (await channelRows(nvr.id)).map((c) => c.version);

    await send(nvr, { online: false });
    await access().flush();
    expect(await statuses(nvr)).toEqual([0, 0, 0]);
    await send(nvr, {});
    await access().flush();
    expect(await statuses(nvr)).toEqual([1, 1, 1]);
    // Status is device access's: the channels' versions do not move (a staff edit meets no spurious 409).
    expect((await channelRows(nvr.id)).map((c) => c.version)).toEqual(versions);
    // Another NVR's channels are left alone.
    expect(await statuses(quiet)).toEqual([0]);

    // Two NVRs flipping in one batch (one flush, one statement): both lists follow.
    await send(quiet, {});
    await send(nvr, { online: false });
    await access().flush();
    expect([await statuses(nvr), await statuses(quiet)]).toEqual([[0, 0, 0], [1]]);
    await countersMatch();
  });

  it('the offline sweep and staff disable take the channels offline; back online with the NVR’s next message', async () => {
    const nvr = await add({ type: '118' });
    await send(nvr, { channels: [{ channelNo: 1 }, { channelNo: 2 }] });
    await access().flush();
    expect(await statuses(nvr)).toEqual([1, 1]);
    t.clock.offsetMs += 181_000;
    expect(await access().sweep()).toBeGreaterThanOrEqual(1);
    expect(await nvrStatus(nvr)).toBe(0);
    expect(await statuses(nvr)).toEqual([0, 0]);
    await send(nvr, {});
    await access().flush();
    expect(await statuses(nvr)).toEqual([1, 1]);

    expect((await client(t, admin).post(`${api}/disable?id=${nvr.id}`)).statusCode).toBe(200);
    expect(await statuses(nvr)).toEqual([0, 0]);
    expect((await client(t, admin).post(`${api}/enable?id=${nvr.id}`)).statusCode).toBe(200);
    expect([await nvrStatus(nvr), await statuses(nvr)]).toEqual([0, [0, 0]]);
    // The first message after the edit is checked again against the new row (docs/devices.md "Cache of devices").
    await send(nvr, {});
    await access().flush();
    await access().flush();
    expect([await nvrStatus(nvr), await statuses(nvr)]).toEqual([1, [1, 1]]);
    await countersMatch();
  });
});
