// Device records (docs/devices.md "Device records"): GB/T 28181 code rules, the blacklist, sealed credentials, the
// MQTT secret shown once, config values against their template, the NVR channel list replace, data scopes and
// tenant isolation. Real database (PGlite, or PostgreSQL with DATABASE_URL).
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.ts';
import { user } from '../src/db/schema/index.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { clientInfo } from '../src/modules/client/table.ts';
import { deviceTexts as texts } from '../src/modules/device/messages.ts';
import { cameraDevice, nvrChannel } from '../src/modules/device/table.ts';
import { MAX_CHANNELS } from '../src/modules/device/channels.ts';
import { unseal } from '../src/platform/secrets.ts';
import { fill } from '@atrium/contract';
import { configValueTexts } from '@atrium/contract/resources/device/configtemplateitem';
import { listCameraNetworks } from './camera-networks.ts';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';
import { rowsOf } from '../src/db/rows.ts';

const T = '750001';
const OTHER = '750002';
const api = '/api/blade-device-access/cameraDevice';
const channels = '/api/blade-device-access/nvrchannelinfo';
let t: TestApp;
let admin: string;
let other: string;
let serial = 0;

/** A GB/T 28181 code: district (6) + 00 + industry 00 + type + network 0 + a 6-digit serial. */
const codeOf = (district: string, type: string, n = ++serial) => `${district}0000${type}0${String(n).padStart(6, '0')}`;

/** A body refused by its schema: the summary names the field by its message. */
const schemaError = (m: string) => `请求参数错误: ${m}`;

const camera = (over: Record<string, unknown> = {}) => {
  const district = String(over.regionCode ?? '110101').slice(0, 6);
  const deviceType = String(over.deviceType ?? '131');
  return { deviceCode: codeOf(district, deviceType), name: `cam ${serial}`, deviceType, regionCode: '110101', ...over };
};

async function save(body: Record<string, unknown>, token = admin, lang?: 'en') {
  return client(t, token, lang).post(`${api}/save`, body);
}
async function saved(body: Record<string, unknown>, token = admin) {
  const res = await save(body, token);
  expect([res.statusCode, res.body.slice(0, 300)]).toEqual([200, res.body.slice(0, 300)]);
  return res.json().data as Record<string, unknown> & { id: string; version: number };
}

async function approvedClient(tenantId: string, phone: string, regionCode = '110101') {
  const id = newId();
  await withTenant(t.services.db, tenantId, (tx) =>
    tx.insert(clientInfo).values({
      id,
      tenantId,
      clientName: `client ${phone}`,
      clientType: 1,
      creditCode: '91110108MA01ABCD0B',
      contactName: 'contact',
      operatorTel: phone,
      regionCode,
      appClientAccount: phone,
      status: 2,
    }),
  );
  return id;
}

async function roleId(alias: string) {
  const res = await client(t, admin).get(`/api/blade-system/role/list?roleAlias=${alias}`);
  const list = res.json().data as
    { id: string; roleAlias: string }[] | { records: { id: string; roleAlias: string }[] };
  const rows = Array.isArray(list) ? list : list.records;
  return rows.find((r) => r.roleAlias === alias)!.id;
}

async function staff(account: string, alias: string, regionCode: string) {
  const res = await client(t, admin).post('/api/blade-user/submit', {
    account,
    realName: account.slice(-10),
    password: 'Staff#2026x',
    roleIds: [await roleId(alias)],
    regionCode,
  });
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return userToken(t, T, account, 'Staff#2026x');
}

async function templateOf(deviceType: string) {
  const res = await client(t, admin).get(`/api/blade-device-access/configtemplate/options?deviceType=${deviceType}`);
  expect(res.statusCode).toBe(200);
  return (res.json().data as { id: string }[])[0].id;
}

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, OTHER)).token;
  // The cameras of these tests are on 10.x: a camera network of the tenant (docs/devices.md "Camera addresses").
  await listCameraNetworks(t, T, ['10.0.0.0/8']);
});
afterAll(async () => t?.close());

describe('device dictionary', () => {
  it('is seeded at provisioning: types 131, 132, 118 with manufacturers, named in the reader’s language', async () => {
    const zh = (await client(t, admin).get('/api/blade-device-access/dictioncary/listAll?parentId=0')).json().data;
    expect(zh.map((r: { code: string }) => r.code)).toEqual(['131', '132', '118']);
    expect(zh[0].name).toBe('摄像机');
    const en = (await client(t, admin, 'en').get('/api/blade-device-access/dictioncary/listAll?deviceType=132')).json()
      .data;
    expect(en.map((r: { name: string }) => r.name)).toEqual(['Hikvision', 'Dahua', 'Uniview']);
    const tree = (await client(t, admin).get('/api/blade-device-access/dictioncary/tree')).json().data;
    expect(tree).toHaveLength(3);
  });

  it('a type code is three digits; a fourth level is refused; an entry in use cannot be removed', async () => {
    const bad = await client(t, admin).post('/api/blade-device-access/dictioncary/submit', { code: 'cam', name: 'x' });
    expect([bad.statusCode, bad.json().msg]).toEqual([400, texts.dictTypeCode.zh]);
    const list = (await client(t, admin).get('/api/blade-device-access/dictioncary/listAll?deviceType=131')).json()
      .data as { id: string; code: string }[];
    const models = (
      await client(t, admin).get(`/api/blade-device-access/dictioncary/listAll?parentId=${list[0].id}`)
    ).json().data as { id: string }[];
    const deep = await client(t, admin).post('/api/blade-device-access/dictioncary/submit', {
      parentId: models[0].id,
      code: 'x1',
      name: 'x',
    });
    expect([deep.statusCode, deep.json().msg]).toEqual([400, texts.dictTooDeep.zh]);
    await saved(camera());
    const types = (await client(t, admin).get('/api/blade-device-access/dictioncary/listAll?parentId=0')).json().data;
    // 131 has children: the tree rule answers first; a leaf in use answers the in-use text.
    const cam = types.find((r: { code: string }) => r.code === '131');
    expect((await client(t, admin).post(`/api/blade-device-access/dictioncary/remove?ids=${cam.id}`)).statusCode).toBe(
      400,
    );
    const leaf = await client(t, admin).post('/api/blade-device-access/dictioncary/submit', { code: '199', name: 'x' });
    await saved(camera({ deviceType: '199' }));
    const rm = await client(t, admin).post(`/api/blade-device-access/dictioncary/remove?ids=${leaf.json().data.id}`);
    expect([rm.statusCode, rm.json().msg]).toEqual([400, fill(texts.dictInUse, { name: 'x' }).zh]);
  });
});

describe('camera codes', () => {
  it('refuses a bad length, an unknown district, a type mismatch, an unknown type and a region mismatch', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [camera({ deviceCode: '1101010000131000001' }), schemaError('设备编码必须是20位数字')],
      [camera({ deviceCode: '11010100001310000a01' }), schemaError('设备编码必须是20位数字')],
      [camera({ deviceCode: codeOf('999999', '131') }), fill(texts.codeDistrict, { district: '999999' }).zh],
      [camera({ deviceCode: codeOf('110000', '131') }), fill(texts.codeDistrict, { district: '110000' }).zh],
      [
        camera({ deviceCode: codeOf('110101', '131'), deviceType: '132' }),
        fill(texts.codeType, { type: '131', deviceType: '132' }).zh,
      ],
      [camera({ deviceCode: codeOf('110101', '777'), deviceType: '777' }), fill(texts.typeUnknown, { type: '777' }).zh],
      [
        camera({ deviceCode: codeOf('110101', '131'), regionCode: '110102' }),
        fill(texts.regionMismatch, { district: '110101' }).zh,
      ],
      [camera({ regionCode: '110101999' }), fill(texts.regionUnknown, { region: '110101999' }).zh],
      [camera({ manufacturer: 'acme' }), fill(texts.manufacturerUnknown, { code: 'acme' }).zh],
      [
        camera({ manufacturer: 'hikvision', model: 'DHI-NVR4208' }),
        fill(texts.modelUnknown, { code: 'DHI-NVR4208' }).zh,
      ],
      [camera({ lng: 181 }), schemaError('经度必须在 -180 到 180 之间')],
      [camera({ lat: -90.5 }), schemaError('纬度必须在 -90 到 90 之间')],
      [camera({ protocol: 'HTTP' }), schemaError('接入协议的取值无效')],
      [camera({ streamUrl: 'ftp://10.0.0.1/x' }), schemaError('视频流地址须以 rtsp://、http:// 或 https:// 开头')],
    ];
    for (const [body, message] of cases) {
      const res = await save(body);
      expect([body.deviceCode, res.statusCode, res.json().msg]).toEqual([body.deviceCode, 400, message]);
    }
    const en = await save(camera({ deviceCode: codeOf('110101', '131'), regionCode: '110102' }), admin, 'en');
    expect(en.json().msg).toBe(fill(texts.regionMismatch, { district: '110101' }).en);
  });

  it('a code blacklisted (type device code) is refused; the same code is unique per tenant', async () => {
    const code = codeOf('110101', '131');
    const black = await client(t, admin).post('/api/blade-business/blackinfo/submit', { type: 5, value: code });
    expect(black.statusCode).toBe(200);
    const res = await save(camera({ deviceCode: code }));
    expect([res.statusCode, res.json().msg]).toEqual([400, texts.blocked.zh]);
    const free = camera();
    await saved(free);
    const dup = await save({ ...free, name: 'again' });
    expect([dup.statusCode, dup.json().msg]).toEqual([400, '设备编码已存在']);
    // Another tenant may use the same code.
    expect((await save(free, other)).statusCode).toBe(200);
  });

  it('submit updates only; save adds; the code stays as added', async () => {
    const noId = await client(t, admin).post(`${api}/submit`, camera());
    expect(noId.statusCode).toBe(400);
    const row = await saved(camera());
    const upd = await client(t, admin).post(`${api}/submit`, {
      ...camera(),
      id: row.id,
      version: row.version,
      name: 'renamed',
    });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().data).toMatchObject({ name: 'renamed', deviceCode: row.deviceCode });
  });
});

describe('secrets', () => {
  it('stream credentials and the ONVIF password are sealed, never answered; the MQTT secret is answered once', async () => {
    const body = camera({
      streamUrl: 'rtsp://admin:Str3amPw!@10.1.1.1:554/live/main',
      onvifUrl: 'http://10.1.1.1/onvif/device_service',
      onvifUser: 'onvif',
      onvifPassword: 'OnvifPw#77',
      protocol: 'ONVIF',
      ptz: 1,
    });
    const res = await save(body);
    expect(res.statusCode).toBe(200);
    const row = res.json().data;
    expect(row.streamUrl).toBe('rtsp://10.1.1.1:554/live/main');
    expect(row.status).toBe(0);
    expect(row.deviceSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const secret = row.deviceSecret as string;
    for (const text of [res.body]) {
      expect(text).not.toContain('Str3amPw');
      expect(text).not.toContain('OnvifPw#77');
      expect(text).not.toContain('admin:');
    }
    const answers = [
      await client(t, admin).get(`${api}/detail?id=${row.id}`),
      await client(t, admin).get(`${api}/pageList?size=1000`),
      await client(t, admin).get(`${api}/list`),
      await client(t, admin).get(`${api}/list?deviceCode=${row.deviceCode}`),
    ];
    for (const a of answers) {
      expect(a.statusCode).toBe(200);
      expect(a.body).toContain(row.id);
      for (const leak of ['Str3amPw', 'OnvifPw#77', secret, 'Sealed', 'deviceSecret', 'onvifPassword'])
        expect([a.body.length, leak, a.body.includes(leak)]).toEqual([a.body.length, leak, false]);
    }
    // At rest: nothing in the clear, and the sealed values open to what was sent.
    const [stored] = await withTenant(t.services.db, T, (tx) =>
      tx.select().from(cameraDevice).where(eq(cameraDevice.id, row.id)),
    );
    const dump = JSON.stringify(stored);
    for (const leak of ['Str3amPw', 'OnvifPw#77', secret]) expect(dump).not.toContain(leak);
    expect(unseal(t.services, stored.streamUrlSealed)).toBe('rtsp://admin:Str3amPw!@10.1.1.1:554/live/main');
    expect(unseal(t.services, stored.onvifPasswordSealed)).toBe('OnvifPw#77');
    expect(unseal(t.services, stored.secretSealed)).toBe(secret);

    // An update without the secrets keeps them (same host: the credentials follow the new path).
    const upd = await client(t, admin).post(`${api}/submit`, {
      ...body,
      id: row.id,
      version: row.version,
      streamUrl: 'rtsp://10.1.1.1:554/live/sub',
      onvifPassword: '',
    });
    expect(upd.statusCode).toBe(200);
    expect(upd.body).not.toContain('deviceSecret');
    const [after] = await withTenant(t.services.db, T, (tx) =>
      tx.select().from(cameraDevice).where(eq(cameraDevice.id, row.id)),
    );
    expect(unseal(t.services, after.streamUrlSealed)).toBe('rtsp://admin:Str3amPw!@10.1.1.1:554/live/sub');
    expect(unseal(t.services, after.onvifPasswordSealed)).toBe('OnvifPw#77');
    expect(after.secretSealed).toBe(stored.secretSealed);
    // Another host: the old credentials are not sent there.
    const moved = await client(t, admin).post(`${api}/submit`, {
      ...body,
      id: row.id,
      streamUrl: 'rtsp://10.9.9.9:554/live',
      onvifPassword: undefined,
    });
    expect(moved.statusCode).toBe(200);
    const [last] = await withTenant(t.services.db, T, (tx) =>
      tx.select().from(cameraDevice).where(eq(cameraDevice.id, row.id)),
    );
    expect(unseal(t.services, last.streamUrlSealed)).toBe('rtsp://10.9.9.9:554/live');
  });
});

describe('config values', () => {
  it('are checked against the template: type, range, options, unknown keys, required; effective config answered', async () => {
    const tpl = await templateOf('131');
    const cases: [unknown, string][] = [
      ['{"frameRate": 100}', fill(configValueTexts.configRange, { name: '帧率', min: 1, max: 60 }).zh],
      ['{"frameRate": "25"}', '配置项“帧率”的值必须是数字'],
      [
        '{"resolution": "8K"}',
        fill(configValueTexts.configOption, { name: '分辨率', options: '4K, 1080P, 720P, D1' }).zh,
      ],
      ['{"osd": "yes"}', '配置项“显示时间水印”的值必须是true 或 false'],
      ['{"nope": 1}', fill(configValueTexts.configUnknown, { key: 'nope' }).zh],
      ['[1,2]', configValueTexts.configJson.zh],
      ['{not json', configValueTexts.configJson.zh],
    ];
    for (const [values, message] of cases) {
      const res = await save(camera({ configTemplateId: tpl, configValues: values }));
      expect([values, res.statusCode, res.json().msg]).toEqual([values, 400, message]);
    }
    const noTpl = await save(camera({ configValues: '{"frameRate": 30}' }));
    expect([noTpl.statusCode, noTpl.json().msg]).toEqual([400, texts.configWithoutTemplate.zh]);
    const wrongType = await save(camera({ configTemplateId: await templateOf('132') }));
    expect([wrongType.statusCode, wrongType.json().msg]).toEqual([400, fill(texts.templateType, { type: '132' }).zh]);

    const row = await saved(camera({ configTemplateId: tpl, configValues: '{"frameRate": 30}' }));
    expect(row.effectiveConfig).toEqual({ resolution: '1080P', frameRate: 30, bitrate: 2048, osd: true });
    const detail = (await client(t, admin).get(`${api}/detail?id=${row.id}`)).json().data;
    expect(JSON.parse(detail.configValues)).toEqual({ frameRate: 30 });
    expect(detail.effectiveConfig.frameRate).toBe(30);

    // A required item without a default needs a value.
    const made = await client(t, admin).post('/api/blade-device-access/configtemplate/submit', {
      name: 'strict',
      deviceType: '131',
    });
    const strict = made.json().data.id;
    const item = await client(t, admin).post('/api/blade-device-access/configtemplateitem/submit', {
      templateId: strict,
      itemKey: 'site',
      itemName: '站点',
      valueType: 'string',
      required: 1,
    });
    expect(item.statusCode).toBe(200);
    const missing = await save(camera({ configTemplateId: strict }));
    expect([missing.statusCode, missing.json().msg]).toEqual([
      400,
      fill(configValueTexts.configRequired, { name: '站点' }).zh,
    ]);
    expect((await save(camera({ configTemplateId: strict, configValues: '{"site":"A"}' }))).statusCode).toBe(200);
    // An item's default must itself be valid.
    const badDefault = await client(t, admin).post('/api/blade-device-access/configtemplateitem/submit', {
      templateId: strict,
      itemKey: 'fps',
      itemName: 'fps',
      valueType: 'number',
      min: 1,
      max: 10,
      defaultValue: '50',
    });
    expect([badDefault.statusCode, badDefault.json().msg]).toEqual([
      400,
      fill(configValueTexts.configRange, { name: 'fps', min: 1, max: 10 }).zh,
    ]);
    // A template devices use cannot be removed.
    const rm = await client(t, admin).post(`/api/blade-device-access/configtemplate/remove?ids=${strict}`);
    expect([rm.statusCode, rm.json().msg]).toEqual([400, fill(texts.templateInUse, { name: 'strict' }).zh]);
  });
});

describe('NVR channels', () => {
  let nvr: string;
  let cam: string;
  const live = async () =>
    (
      await withTenant(t.services.db, T, (tx) =>
        tx
          .select()
          .from(nvrChannel)
          .where(and(eq(nvrChannel.nvrDeviceId, nvr), eq(nvrChannel.isDeleted, 0)))
          .orderBy(nvrChannel.channelNo),
      )
    ).map((c) => ({ no: c.channelNo, name: c.name, cameraId: c.cameraId, region: c.regionCode }));
  const ch = (no: number, extra: Record<string, unknown> = {}) => ({
    channelNo: no,
    channelCode: codeOf('110101', '131', 900000 + no),
    name: `ch${no}`,
    ...extra,
  });
  const replace = (list: object[], token = admin, nvrDeviceId = nvr) =>
    client(t, token).post(`${channels}/saveNvrChannelInfo`, { nvrDeviceId, channels: list });

  beforeAll(async () => {
    nvr = (await saved(camera({ deviceType: '118' }))).id;
    cam = (await saved(camera({ nvrId: nvr, channelNo: 2 }))).id;
  });

  it('replaces the list: upsert by number, the missing removed, camera links kept, region from the NVR', async () => {
    const first = await replace([ch(1), ch(2, { cameraId: cam }), ch(3)]);
    expect([first.statusCode, first.json().data.added]).toEqual([200, 3]);
    expect(first.json().msg).toBe(fill(texts.channelsSaved, { added: 3, updated: 0, removed: 0 }).zh);
    const second = await replace([ch(2, { name: 'two' }), ch(3), ch(4)]);
    expect(second.json().data).toMatchObject({ added: 1, updated: 1, removed: 1 });
    expect(await live()).toEqual([
      { no: 2, name: 'two', cameraId: cam, region: '110101' },
      { no: 3, name: 'ch3', cameraId: null, region: '110101' },
      { no: 4, name: 'ch4', cameraId: null, region: '110101' },
    ]);
    // null clears a link.
    await replace([ch(2, { name: 'two', cameraId: null }), ch(3), ch(4)]);
    expect((await live())[0].cameraId).toBeNull();
    // The list's own rules.
    const dup = await replace([ch(1), ch(1)]);
    expect([dup.statusCode, dup.json().msg]).toEqual([400, fill(texts.channelNoDup, { no: 1 }).zh]);
    const code = await replace([{ channelNo: 5, channelCode: '123' }]);
    expect([code.statusCode, code.json().msg]).toEqual([400, fill(texts.channelCodeBad, { no: 5 }).zh]);
    const notNvr = await replace([ch(1)], admin, cam);
    expect([notNvr.statusCode, notNvr.json().msg]).toEqual([400, texts.nvrNotNvr.zh]);
    expect((await replace([ch(1)], other)).statusCode).toBe(404);
    // A malformed id is refused by the declared body, named by the field's label.
    const badId = await replace([ch(1)], admin, 'abc');
    expect([badId.statusCode, badId.json().msg]).toEqual([400, schemaError('所属NVR必须是数字编号')]);
    const badCam = await client(t, admin, 'en').post(`${channels}/saveNvrChannelInfo`, {
      nvrDeviceId: nvr,
      channels: [ch(1, { cameraId: 'x' })],
    });
    expect([badCam.statusCode, badCam.json().data]).toEqual([
      400,
      [{ field: 'channels.0.cameraId', message: 'Camera must be a numeric id' }],
    ]);
  });

  it('the list at its largest is answered whole; one more channel, or a bad number, is refused with its message', async () => {
    const all = Array.from({ length: MAX_CHANNELS }, (_, i) => ({ channelNo: i + 1 }));
    const full = await replace(all);
    expect([full.statusCode, full.json().data.channels.length]).toEqual([200, MAX_CHANNELS]);
    const over = await replace([...all, { channelNo: MAX_CHANNELS + 1 }]);
    expect([over.statusCode, over.json().msg]).toEqual([400, fill(texts.channelsTooMany, { max: MAX_CHANNELS }).zh]);
    for (const channelNo of ['abc', null, 0, 1.5])
      expect((await replace([{ channelNo }])).json().msg).toBe(texts.channelNoBad.zh);
    const longName = await replace([{ channelNo: 1, name: 'x'.repeat(65) }]);
    expect([longName.statusCode, longName.json().msg]).toEqual([400, fill(texts.channelNameBad, { no: 1 }).zh]);
  });

  it('concurrent replaces of one NVR: each answers 200 or 409, never 500, and one list wins whole', async () => {
    const lists = [[ch(1), ch(2), ch(3)], [ch(7), ch(8)], [ch(2), ch(9), ch(10), ch(11)], [ch(12)]];
    const answers = await Promise.all(lists.map((l) => replace(l)));
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    const nos = (await live()).map((c) => c.no);
    expect(lists.map((l) => l.map((c) => c.channelNo))).toContainEqual(nos);
  });

  it('an NVR with channels or cameras behind it cannot be removed; a camera removed leaves its channel unlinked', async () => {
    const rm = await client(t, admin).post(`${api}/remove?ids=${nvr}`);
    expect(rm.statusCode).toBe(400);
    expect(rm.json().msg).toContain('NVR');
    await replace([ch(2, { cameraId: cam })]);
    expect((await client(t, admin).post(`${api}/remove?ids=${cam}`)).statusCode).toBe(200);
    expect((await live())[0].cameraId).toBeNull();
  });

  it('a camera behind an NVR names a live NVR of the tenant; a channel number needs its NVR', async () => {
    const notNvr = await save(camera({ nvrId: (await saved(camera())).id }));
    expect([notNvr.statusCode, notNvr.json().msg]).toEqual([400, texts.nvrNotNvr.zh]);
    const alone = await save(camera({ channelNo: 3 }));
    expect([alone.statusCode, alone.json().msg]).toEqual([400, texts.channelWithoutNvr.zh]);
    const theirs = await saved(camera({ deviceType: '118' }), other);
    const cross = await save(camera({ nvrId: theirs.id }));
    expect([cross.statusCode, cross.json().msg]).toEqual([404, texts.nvrUnknown.zh]);
  });
});

describe('data scopes and tenants', () => {
  let regionA: string;
  let regionB: string;
  let camA: Record<string, unknown> & { id: string; version: number };
  let camB: Record<string, unknown> & { id: string; version: number };

  beforeAll(async () => {
    regionA = await staff('dev_region_a', 'region_admin', '110101');
    regionB = await staff('dev_region_b', 'region_admin', '110102');
    camA = await saved(camera({ name: 'in A' }));
    camB = await saved(camera({ deviceCode: codeOf('110102', '131'), regionCode: '110102', name: 'in B' }));
  });

  it('a region admin of district A never sees B’s cameras: pageList, list, detail 404, submit 404', async () => {
    const page = (await client(t, regionA).get(`${api}/pageList?size=1000`)).json().data;
    expect(page.records.every((r: { regionCode: string }) => r.regionCode.startsWith('110101'))).toBe(true);
    expect(page.records.map((r: { id: string }) => r.id)).toContain(camA.id);
    const list = (await client(t, regionA).get(`${api}/list`)).json().data as { id: string }[];
    expect(list.map((r) => r.id)).not.toContain(camB.id);
    expect(list.map((r) => r.id)).toContain(camA.id);
    expect((await client(t, regionA).get(`${api}/detail?id=${camB.id}`)).statusCode).toBe(404);
    const upd = await client(t, regionA).post(`${api}/submit`, {
      ...camera({ deviceCode: camB.deviceCode, regionCode: '110102' }),
      id: camB.id,
    });
    expect(upd.statusCode).toBe(404);
    expect((await client(t, regionA).post(`${api}/remove?ids=${camB.id}`)).statusCode).toBe(404);
    expect((await client(t, regionB).get(`${api}/detail?id=${camB.id}`)).statusCode).toBe(200);
    // Registering in another district is refused; moving one's own camera out as well.
    const outside = await save(camera({ deviceCode: codeOf('110102', '131'), regionCode: '110102' }), regionA);
    expect([outside.statusCode, outside.json().msg]).toEqual([400, texts.outsideScope.zh]);
    expect((await save(camera(), regionA)).statusCode).toBe(200);
    // The owner named is a client the region admin sees (a client of its region).
    const far = await approvedClient(T, '13800000021', '110102');
    const near = await approvedClient(T, '13800000022', '110101');
    const farRes = await save(camera({ clientId: far }), regionA);
    expect([farRes.statusCode, farRes.json().msg]).toEqual([400, texts.clientUnknown.zh]);
    expect((await save(camera({ clientId: near }), regionA)).statusCode).toBe(200);
  });

  it('product roles: a region admin reads the dictionary and templates only; a leader reads cameras only', async () => {
    const dict = await client(t, regionA).post('/api/blade-device-access/dictioncary/submit', {
      code: '198',
      name: 'x',
    });
    expect(dict.statusCode).toBe(403);
    expect((await client(t, regionA).get('/api/blade-device-access/dictioncary/tree')).statusCode).toBe(200);
    expect((await client(t, regionA).get('/api/blade-device-access/configtemplate/list')).statusCode).toBe(200);
    const leader = await staff('dev_leader', 'leader_admin', '11');
    const page = await client(t, leader).get(`${api}/pageList?size=1000`);
    expect(page.json().data.records.map((r: { id: string }) => r.id)).toEqual(
      expect.arrayContaining([camA.id, camB.id]),
    );
    expect((await save(camera(), leader)).statusCode).toBe(403);
    expect((await client(t, leader).post(`${api}/disable?id=${camA.id}`)).statusCode).toBe(403);
  });

  it('a client account sees only its own devices and registers them as its own', async () => {
    const mine = await approvedClient(T, '13800000011');
    const theirs = await approvedClient(T, '13800000012');
    const supplier = await staff('dev_supplier', 'supplier_admin', '110101');
    await withTenant(t.services.db, T, (tx) =>
      tx
        .update(user)
        .set({ clientInfoId: mine })
        .where(and(eq(user.tenantId, T), eq(user.account, 'dev_supplier'))),
    );
    t.services.cache.clearAll();
    const theirsCam = await saved(camera({ clientId: theirs }));
    const made = await saved(camera({ clientId: theirs }), supplier);
    expect(made.clientId).toBe(mine);
    const page = (await client(t, supplier).get(`${api}/pageList?size=1000`)).json().data;
    expect(page.records.map((r: { id: string }) => r.id)).toEqual([made.id]);
    expect((await client(t, supplier).get(`${api}/detail?id=${theirsCam.id}`)).statusCode).toBe(404);
    expect((await client(t, supplier).get(`${api}/list`)).json().data.map((r: { id: string }) => r.id)).toEqual([
      made.id,
    ]);
  });

  it('another tenant gets 404 on detail, submit, remove and actions; its references are unknown', async () => {
    expect((await client(t, other).get(`${api}/detail?id=${camA.id}`)).statusCode).toBe(404);
    expect((await client(t, other).post(`${api}/submit`, { ...camera(), id: camA.id })).statusCode).toBe(404);
    expect((await client(t, other).post(`${api}/remove?ids=${camA.id}`)).statusCode).toBe(404);
    expect((await client(t, other).post(`${api}/disable?id=${camA.id}`)).statusCode).toBe(404);
    const foreignClient = await approvedClient(OTHER, '13800000013');
    const res = await save(camera({ clientId: foreignClient }));
    expect([res.statusCode, res.json().msg]).toEqual([400, texts.clientUnknown.zh]);
  });

  it('staff disable and enable a device; a submit never changes its status', async () => {
    const dis = await client(t, admin).post(`${api}/disable?id=${camA.id}`);
    expect(dis.statusCode).toBe(200);
    const after = (await client(t, admin).get(`${api}/detail?id=${camA.id}`)).json().data;
    expect(after.status).toBe(2);
    const upd = await client(t, admin).post(`${api}/submit`, {
      ...camera({ deviceCode: camA.deviceCode }),
      id: camA.id,
      status: 1,
    });
    expect(upd.json().data.status).toBe(2);
    expect((await client(t, admin).post(`${api}/enable?id=${camA.id}`)).statusCode).toBe(200);
    expect((await client(t, admin).get(`${api}/detail?id=${camA.id}`)).json().data.status).toBe(0);
    const db = await withTenant(t.services.db, T, (tx) =>
      rowsOf<{ n: number }>(tx, sql`select count(*)::int as n from camera_device where status not in (0, 1, 2)`),
    );
    expect(db[0].n).toBe(0);
  });
});
