// The low-latency path of live video (docs/devices.md "Low latency"): the box splitter and key-frame reading on
// boxes built here, the hub's fan-out on fake sockets (a new viewer starts at the latest key frame, a slow one is
// skipped ahead or dropped), then the real thing: the one ffmpeg per camera writing fragmented MP4 beside its HLS,
// read over a WebSocket with the stream's signed token — and nothing for another tenant's viewer, an expired or a
// forged token. Real ffmpeg, real RTSP camera on loopback, real database.
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.ts';
import { newId } from '../src/db/ids.ts';
import { cameraDevice } from '../src/modules/device/table.ts';
import { seal } from '../src/platform/secrets.ts';
import { BoxSplitter, CLOSE, LiveHub, startsWithKey, type LiveSocket } from '../src/modules/video/live.ts';
import { managers } from '../src/modules/video/module.ts';
import { signHls } from '../src/modules/video/token.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { listCameraNetworks } from './camera-networks.ts';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';
import { startTestCamera, type TestCamera } from './support/test-camera.ts';

// ——— boxes built by hand (ISO/IEC 14496-12 headers) ———
const box = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const u32 = (...n: number[]) => {
  const b = Buffer.alloc(4 * n.length);
  n.forEach((v, i) => b.writeUInt32BE(v >>> 0, i * 4));
  return b;
};
const NON_SYNC = 0x01010000;
const SYNC = 0x02000000;
/** A moof as ffmpeg writes it: tfhd with default (non-sync) flags, trun with or without first-sample flags. */
const moof = (seq: number, key: boolean) =>
  box(
    'moof',
    box('mfhd', u32(0, seq)),
    box(
      'traf',
      // version/flags 0x020038: default-base-is-moof, default duration, size, flags
      box('tfhd', u32(0x020038, 1, 512, 100, NON_SYNC)),
      box('tfdt', u32(0x01000000, 0, seq * 512)),
      key ? box('trun', u32(0x000005, 1, 116, SYNC)) : box('trun', u32(0x000001, 1, 112)),
    ),
  );
const mdat = (n: number) => box('mdat', Buffer.alloc(n, 7));
const INIT = Buffer.concat([box('ftyp', Buffer.from('isom')), box('moov', Buffer.alloc(20))]);
const fragment = (seq: number, key: boolean) => Buffer.concat([moof(seq, key), mdat(100)]);

describe('boxes', () => {
  it('splits a byte stream into top-level boxes whatever the chunking, 64-bit sizes included', () => {
    const big = Buffer.concat([u32(1), Buffer.from('mdat'), u32(0, 16 + 5), Buffer.alloc(5, 1)]);
    const all = Buffer.concat([INIT, fragment(1, true), big]);
    for (const step of [1, 3, 7, 64, all.length]) {
      const s = new BoxSplitter();
      const types: string[] = [];
      for (let i = 0; i < all.length; i += step) types.push(...s.push(all.subarray(i, i + step)).map((b) => b.type));
      expect(types).toEqual(['ftyp', 'moov', 'moof', 'mdat', 'mdat']);
    }
    // A size below its own header is no box: the splitter stops rather than spin.
    const bad = new BoxSplitter();
    expect(bad.push(Buffer.concat([u32(4), Buffer.from('junk'), INIT]))).toEqual([]);
    expect(bad.broken).toBe(true);
  });

  it('reads whether a fragment starts with a key frame (trun first-sample flags over tfhd defaults)', () => {
    expect(startsWithKey(moof(1, true))).toBe(true);
    expect(startsWithKey(moof(2, false))).toBe(false);
  });
});

// ——— the hub on fake sockets ———
class FakeSocket extends EventEmitter implements LiveSocket {
  readyState = 1;
  bufferedAmount = 0;
  sent: Buffer[] = [];
  closed?: number;
  terminated = false;
  send(data: Buffer) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closed = code;
    this.readyState = 3;
    this.emit('close');
  }
  terminate() {
    this.terminated = true;
    this.readyState = 3;
    this.emit('close');
  }
  types() {
    return this.sent.map((b) => b.toString('latin1', 4, 8));
  }
  keys() {
    return this.sent.filter((b) => b.toString('latin1', 4, 8) === 'moof').map((b) => startsWithKey(b));
  }
}

describe('the hub', () => {
  it('a new viewer gets the init segment and the fragments since the latest key frame, then live ones', () => {
    const hub = new LiveHub();
    const early = new FakeSocket();
    hub.join(early); // before anything: waits for the first key frame
    hub.write(INIT);
    hub.write(fragment(1, false)); // no key frame yet: nobody can decode it
    expect(early.sent).toEqual([]);
    hub.write(Buffer.concat([fragment(2, true), fragment(3, false)]));
    expect(early.types()).toEqual(['ftyp', 'moof', 'moof']);
    hub.write(fragment(4, true));
    hub.write(fragment(5, false));
    const late = new FakeSocket();
    hub.join(late);
    // The init segment, then the GOP in progress from its key frame (4), not the older one.
    expect(late.sent[0]).toEqual(INIT);
    expect(late.keys()).toEqual([true, false]);
    expect(late.sent[1].readUInt32BE(20)).toBe(4); // mfhd sequence number
    hub.write(fragment(6, false));
    expect(late.keys()).toEqual([true, false, false]);
    expect(early.keys()).toEqual([true, false, true, false, false]);
  });

  it('a viewer that does not drain is skipped ahead to the next key frame, then dropped when it holds too much', () => {
    const hub = new LiveHub({ skipBytes: 1000, dropBytes: 5000, keepBytes: 1 << 20 });
    const slow = new FakeSocket();
    const fast = new FakeSocket();
    hub.write(INIT);
    hub.write(fragment(1, true));
    hub.join(slow);
    hub.join(fast);
    slow.bufferedAmount = 2000; // behind
    hub.write(fragment(2, false));
    hub.write(fragment(3, false));
    slow.bufferedAmount = 0; // drained, but fragment 4 depends on 2 and 3: still skipped
    hub.write(fragment(4, false));
    hub.write(fragment(5, true));
    hub.write(fragment(6, false));
    expect(fast.keys()).toEqual([true, false, false, false, true, false]);
    expect(slow.keys()).toEqual([true, true, false]);
    expect(hub.skipped).toBe(3);
    slow.bufferedAmount = 6000;
    hub.write(fragment(7, false));
    expect(slow.terminated).toBe(true);
    expect(hub.dropped).toBe(1);
    expect(hub.viewerCount).toBe(1);
  });

  it('a start replaced before its first key frame (the fall-back to UDP) still settles the promise awaited', async () => {
    const hub = new LiveHub();
    const { PassThrough } = await import('node:stream');
    hub.attach(new PassThrough());
    const awaited = hub.keyReady;
    let settled = false;
    void awaited.then(() => (settled = true));
    const second = new PassThrough();
    hub.attach(second);
    second.write(Buffer.concat([INIT, fragment(1, true)]));
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(true);
  });

  it('a restarted process closes its viewers (new init segment), a stopped stream too', async () => {
    const hub = new LiveHub();
    const v = new FakeSocket();
    const { PassThrough } = await import('node:stream');
    hub.attach(new PassThrough());
    hub.write(INIT);
    hub.write(fragment(1, true));
    hub.join(v);
    hub.attach(new PassThrough());
    expect(v.closed).toBe(CLOSE.restart);
    const w = new FakeSocket();
    hub.join(w);
    expect(w.sent).toEqual([]); // nothing of the old process
    hub.close();
    expect(w.closed).toBe(CLOSE.gone);
  });
});

// ——— the real path ———
const T = '750011';
const OTHER = '750012';
const PORT = process.env.DATABASE_URL ? 18350 : 18330;

let t: TestApp;
let admin: string;
let other: string;
let cam: TestCamera;
let base: string;
const ids: Record<string, string> = {};

async function camera(tenantId: string, name: string) {
  const id = newId();
  await withTenant(t.services.db, tenantId, (tx) =>
    tx.insert(cameraDevice).values({
      id,
      tenantId,
      deviceCode: `1101010013${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`,
      name,
      deviceType: '131',
      regionCode: '110101',
      protocol: 'RTSP',
      streamUrlSealed: seal(t.services, cam.url),
      streamUrl: cam.url,
      status: 1,
    }),
  );
  return id;
}

type Address = { streamId: string; hls: string; live: string; expiresAt: string };
const play = async (token: string, id: string, wait = 'live') => {
  const res = await client(t, token).get(`/api/video/queryDeviceVideo?deviceInfoId=${id}&wait=${wait}`);
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return res.json().data as Address;
};

/** Opens the socket: its first messages, or the HTTP status it was refused with. */
function open(path: string, want = 3, ms = 8000): Promise<{ status?: number; messages: Buffer[]; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}${path}`);
    const messages: Buffer[] = [];
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`only ${messages.length} messages in ${ms} ms`));
    }, ms);
    ws.on('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      resolve({ status: res.statusCode, messages });
      res.resume();
    });
    ws.on('message', (data: Buffer) => {
      messages.push(data);
      if (messages.length === want) {
        clearTimeout(timer);
        resolve({ messages, ws });
      }
    });
    ws.on('error', () => {});
  });
}

const typeOf = (b: Buffer) => b.toString('latin1', 4, 8);

beforeAll(async () => {
  cam = await startTestCamera({ clientPort: PORT, sourcePort: PORT + 1 });
  const cfg = loadConfig({ NODE_ENV: 'test', ATRIUM_FFMPEG: process.env.ATRIUM_FFMPEG }).video;
  t = await createTestApp({ video: { ...cfg, maxStreams: 4, tokenSeconds: 60, startSeconds: 8 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  base = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const platform = (await loginToken(t)).access;
  admin = (await provisionedTenant(t, platform, T)).token;
  other = (await provisionedTenant(t, platform, OTHER)).token;
  await listCameraNetworks(t, T, ['127.0.0.0/8']);
  await listCameraNetworks(t, OTHER, ['127.0.0.0/8']);
  ids.a = await camera(T, 'gate');
  ids.foreign = await camera(OTHER, 'foreign');
}, 60_000);

afterAll(async () => {
  await t?.close();
  await cam?.stop();
});

describe('fragmented MP4 over a WebSocket', () => {
  let a: Address;

  it('queryDeviceVideo?wait=live answers the socket address; the socket sends the init segment, then a key frame', async () => {
    a = await play(admin, ids.a);
    expect(a.live).toMatch(new RegExp(`^/api/video/live/${a.streamId}\\?token=`));
    const { messages, ws } = await open(a.live, 4);
    ws!.close();
    expect(typeOf(messages[0])).toBe('ftyp');
    expect(messages[0].includes(Buffer.from('avcC'))).toBe(true); // the codec's configuration, for MediaSource
    expect(messages.slice(1, 4).map(typeOf)).toEqual(['moof', 'moof', 'moof']);
    expect(startsWithKey(messages[1])).toBe(true);
    // Small fragments: one frame each (25 fps source), so a frame leaves the server as soon as ffmpeg has it.
    expect(messages[2].length).toBeLessThan(20_000);
    // Still one ffmpeg for the camera: the HLS output plays from the same process.
    const stream = managers.get(t.services)!.get(a.streamId)!;
    expect(
      managers
        .get(t.services)!
        .list()
        .filter((s) => s.cameraId === ids.a),
    ).toHaveLength(1);
    // Answered on the key frame, before the first HLS segment: the playlist waits for it (a fall-back to HLS).
    const list = await t.app.inject({ method: 'GET', url: a.hls });
    expect([list.statusCode, stream.state]).toEqual([200, 'playing']);
    expect(list.body).toContain('#EXTINF');
  }, 20_000);

  it('a wait that is neither hls nor live is a 400 naming it', async () => {
    const res = await client(t, admin, 'en').get(`/api/video/queryDeviceVideo?deviceInfoId=${ids.a}&wait=soon`);
    expect([res.statusCode, res.json().data]).toEqual([400, [{ field: 'wait', message: 'wait is hls or live' }]]);
  });

  it('another viewer of the same camera joins the same process and starts at the latest key frame', async () => {
    const b = await play(admin, ids.a);
    expect(b.streamId).toBe(a.streamId);
    const { messages, ws } = await open(b.live, 2);
    ws!.close();
    // The fragments since the latest key frame come at once behind the init segment (as many as the GOP has so far).
    expect(messages.slice(0, 2).map(typeOf)).toEqual(['ftyp', 'moof']);
    expect(startsWithKey(messages[1])).toBe(true);
  }, 20_000);

  it('another tenant, an expired, a forged or another stream’s token gets no socket', async () => {
    const key = t.services.deriveKey('video-hls/v1');
    const exp = Math.floor(Date.now() / 1000) + 60;
    const stream = managers.get(t.services)!.get(a.streamId)!;
    const user = [...stream.viewers][0];
    // Another tenant's viewer, with a token well signed for this stream: 404, as for a stream it never opened.
    const foreignUser = signHls(key, { streamId: a.streamId, tenantId: OTHER, userId: user, exp });
    expect((await open(`/api/video/live/${a.streamId}?token=${foreignUser}`)).status).toBe(404);
    // Another tenant's own stream's token on this stream: 403.
    const f = await play(other, ids.foreign);
    const foreignToken = new URL(f.live, 'http://x').searchParams.get('token')!;
    expect((await open(`/api/video/live/${a.streamId}?token=${encodeURIComponent(foreignToken)}`)).status).toBe(403);
    // Expired.
    const old = signHls(key, { streamId: a.streamId, tenantId: T, userId: user, exp: exp - 120 });
    expect((await open(`/api/video/live/${a.streamId}?token=${old}`)).status).toBe(403);
    // Forged: a changed body under the old signature, or none at all.
    const good = new URL(a.live, 'http://x').searchParams.get('token')!;
    const [body, mac] = good.split('.');
    const forged = `${Buffer.from(JSON.stringify([a.streamId, T, 'someone', exp])).toString('base64url')}.${mac}`;
    expect(body).not.toBe(forged.split('.')[0]);
    expect((await open(`/api/video/live/${a.streamId}?token=${forged}`)).status).toBe(401);
    expect((await open(`/api/video/live/${a.streamId}`)).status).toBe(401);
  }, 30_000);

  it('the socket closes when the stream stops', async () => {
    const { ws } = await open(a.live, 1);
    const closed = new Promise<number>((r) => ws!.once('close', (code) => r(code)));
    await managers.get(t.services)!.stop(a.streamId);
    expect(await closed).toBe(CLOSE.gone);
  }, 20_000);
});
