// Fair shares of the stream cap (docs/devices.md "Fair shares"): a user and a tenant each get a bounded share of
// ATRIUM_MAX_STREAMS, so one account cannot take every slot; joining a running stream is never refused; each refusal
// is a 429 naming the limit reached, in both languages; a stream its starter left is charged to who still watches.
// The streams run a stand-in ffmpeg (a shell script writing a playable playlist, then sleeping): the counting is
// what is tested here, test/video.test.ts plays real cameras.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { newId } from '../src/db/ids.ts';
import { cameraDevice } from '../src/modules/device/table.ts';
import { seal } from '../src/platform/secrets.ts';
import { failureTexts } from '../src/modules/video/messages.ts';
import { managers } from '../src/modules/video/module.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { listCameraNetworks } from './camera-networks.ts';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';

const T = '760001';
const OTHER = '760002';
const IDLE_SECONDS = 30;
// Server 5, tenant 3, user 2.
const SHARES = { maxStreams: 5, maxStreamsPerTenant: 3, maxStreamsPerUser: 2 };

let t: TestApp;
const tokens: Record<string, string> = {};
const cams: Record<string, string> = {};

/** An ffmpeg stand-in: answers -version, else writes a playlist with one segment where ffmpeg would and sleeps. */
function fakeFfmpeg(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-fair-ff-'));
  const file = path.join(dir, 'ffmpeg');
  fs.writeFileSync(
    file,
    [
      '#!/bin/sh',
      'if [ "$2" = "-version" ]; then echo "ffmpeg version 7.1.1 Copyright (c) the FFmpeg developers"; exit 0; fi',
      // The playlist is the argument ending in .m3u8 (the low-latency output, pipe:1, comes after it).
      'for a; do case "$a" in *.m3u8) out=$a ;; esac; done',
      `printf '#EXTM3U\\n#EXTINF:1.0,\\ns000000.ts\\n' > "$out"`,
      'exec sleep 600',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return file;
}

async function camera(tenantId: string, name: string) {
  const id = newId();
  const url = `rtsp://127.0.0.1:9/${name}`;
  await withTenant(t.services.db, tenantId, (tx) =>
    tx.insert(cameraDevice).values({
      id,
      tenantId,
      deviceCode: `11010100131${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`,
      name,
      deviceType: '131',
      regionCode: '110101',
      protocol: 'RTSP',
      streamUrlSealed: seal(t.services, url),
      streamUrl: url,
      status: 1,
    }),
  );
  return id;
}

async function staff(admin: string, account: string) {
  const roles = await client(t, admin).get('/api/blade-system/role/list?roleAlias=region_admin');
  const res = await client(t, admin).post('/api/blade-user/submit', {
    account,
    realName: account,
    password: 'Staff#2026x',
    roleIds: [roles.json().data.records[0].id],
    regionCode: '110101',
  });
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return res;
}

const play = async (who: string, cam: string, lang?: 'en') => {
  const res = await client(t, tokens[who], lang).get(`/api/video/queryDeviceVideo?deviceInfoId=${cams[cam]}`);
  const body = res.json() as { msg: string; data: { streamId: string } };
  return { status: res.statusCode, msg: body.msg, streamId: body.data?.streamId };
};
const touch = (who: string, streamId: string) =>
  client(t, tokens[who]).get(`/api/video/streamTouch?streamId=${streamId}`);
const manager = () => managers.get(t.services)!;

beforeAll(async () => {
  const base = loadConfig({ NODE_ENV: 'test' }).video;
  t = await createTestApp({ video: { ...base, ...SHARES, ffmpeg: fakeFfmpeg(), idleSeconds: IDLE_SECONDS } });
  const platform = (await loginToken(t)).access;
  tokens.admin = (await provisionedTenant(t, platform, T)).token;
  tokens.otherAdmin = (await provisionedTenant(t, platform, OTHER)).token;
  await listCameraNetworks(t, T, ['127.0.0.0/8']);
  await listCameraNetworks(t, OTHER, ['127.0.0.0/8']);
  await staff(tokens.admin, 'fair_one');
  tokens.one = await userToken(t, T, 'fair_one', 'Staff#2026x');
  await staff(tokens.otherAdmin, 'fair_two');
  tokens.two = await userToken(t, OTHER, 'fair_two', 'Staff#2026x');
  for (const c of ['a1', 'a2', 'a3', 'a4']) cams[c] = await camera(T, c);
  for (const c of ['b1', 'b2', 'b3']) cams[c] = await camera(OTHER, c);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('fair shares of the stream cap', () => {
  const ids: Record<string, string> = {};

  it('one user cannot take every slot: the user share answers 429 with its text, in both languages', async () => {
    for (const c of ['a1', 'a2']) {
      const r = await play('admin', c);
      expect([c, r.status, r.msg]).toEqual([c, 200, r.msg]);
      ids[c] = r.streamId;
    }
    const zh = await play('admin', 'a3');
    expect([zh.status, zh.msg]).toEqual([429, failureTexts.fullUser.zh]);
    const en = await play('admin', 'a3', 'en');
    expect([en.status, en.msg]).toEqual([429, failureTexts.fullUser.en]);
    // Nothing was started for the refused request.
    expect(manager().size).toBe(2);
  });

  it('the tenant share: another user of the same tenant gets one more, then 429 naming the tenant', async () => {
    const r = await play('one', 'a3');
    expect(r.status).toBe(200);
    ids.a3 = r.streamId;
    const zh = await play('one', 'a4');
    expect([zh.status, zh.msg]).toEqual([429, failureTexts.fullTenant.zh]);
    const en = await play('one', 'a4', 'en');
    expect([en.status, en.msg]).toEqual([429, failureTexts.fullTenant.en]);
  });

  it('another tenant still gets streams; the server’s cap then answers 429 naming the server', async () => {
    for (const [who, c] of [
      ['otherAdmin', 'b1'],
      ['two', 'b2'],
    ]) {
      const r = await play(who, c);
      expect([c, r.status, r.msg]).toEqual([c, 200, r.msg]);
      ids[c] = r.streamId;
    }
    expect(manager().size).toBe(5);
    const zh = await play('two', 'b3');
    expect([zh.status, zh.msg]).toEqual([429, failureTexts.full.zh]);
    const en = await play('two', 'b3', 'en');
    expect([en.status, en.msg]).toEqual([429, failureTexts.full.en]);
    // The three texts differ: each names its limit.
    expect(new Set([failureTexts.full.en, failureTexts.fullTenant.en, failureTexts.fullUser.en]).size).toBe(3);
  });

  it('joining a running stream at the cap and beyond one’s share is never refused, and starts nothing', async () => {
    // The user at their share joins the other user's stream, and the other user joins theirs; the server is full.
    const joined = await play('admin', 'a3');
    expect([joined.status, joined.streamId]).toEqual([200, ids.a3]);
    const joined2 = await play('one', 'a1', 'en');
    expect([joined2.status, joined2.streamId]).toEqual([200, ids.a1]);
    expect(manager().size).toBe(5);
  });

  it('a stream its starter left is charged to the viewer who keeps it: the starter’s share is free again', async () => {
    // The admin keeps watching a2 only; "one" keeps a1 (started by the admin) and a3 alive; tenant B its own.
    for (let i = 0; i < 4; i++) {
      t.clock.offsetMs += 10_000;
      for (const [who, id] of [
        ['admin', ids.a2],
        ['one', ids.a1],
        ['one', ids.a3],
        ['otherAdmin', ids.b1],
        ['two', ids.b2],
      ])
        expect([who, (await touch(who, id)).statusCode]).toEqual([who, 200]);
      manager().sweep();
    }
    expect(manager().size).toBe(5);
    const a1 = manager().get(ids.a1)!;
    expect(manager().chargedTo(a1)).not.toBe(a1.startedBy);
    // The admin now holds one stream: no longer their own share, the tenant's (3 running) is what refuses.
    const r = await play('admin', 'a4', 'en');
    expect([r.status, r.msg]).toEqual([429, failureTexts.fullTenant.en]);
    // Tenant B's admin stops watching b1: it stops at the idle time, and the slot serves a start again.
    for (let i = 0; i < 2; i++) {
      t.clock.offsetMs += (IDLE_SECONDS / 2 + 1) * 1000;
      for (const [who, id] of [
        ['admin', ids.a2],
        ['one', ids.a1],
        ['one', ids.a3],
        ['two', ids.b2],
      ])
        expect([who, (await touch(who, id)).statusCode]).toEqual([who, 200]);
      manager().sweep();
    }
    expect(manager().get(ids.b1)).toBeUndefined();
    const b = await play('otherAdmin', 'b3');
    expect(b.status).toBe(200);
  });
});

describe('configuration', () => {
  it('shares default to half the cap per tenant and a quarter per user; each can be set', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).video).toMatchObject({
      maxStreams: 16,
      maxStreamsPerTenant: 8,
      maxStreamsPerUser: 4,
    });
    expect(loadConfig({ NODE_ENV: 'test', ATRIUM_MAX_STREAMS: '5' }).video).toMatchObject({
      maxStreamsPerTenant: 3,
      maxStreamsPerUser: 2,
    });
    expect(
      loadConfig({
        NODE_ENV: 'test',
        ATRIUM_MAX_STREAMS: '40',
        ATRIUM_MAX_STREAMS_PER_TENANT: '40',
        ATRIUM_MAX_STREAMS_PER_USER: '16',
      }).video,
    ).toMatchObject({ maxStreams: 40, maxStreamsPerTenant: 40, maxStreamsPerUser: 16 });
    expect(() => loadConfig({ NODE_ENV: 'test', ATRIUM_MAX_STREAMS_PER_USER: '0' })).toThrow(
      /ATRIUM_MAX_STREAMS_PER_USER/,
    );
  });
});
