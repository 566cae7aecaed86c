// Device access over MQTT (docs/devices.md "Device access"): signed heartbeats through the embedded broker bring a
// device online with one status event; silence (a controlled clock) takes it offline; forged, stale, replayed, unknown
// and foreign messages change nothing and are logged once; a message with channels syncs an NVR's channels; the same
// through the machine's Mosquitto (ATRIUM_MQTT_URL). The message checks run on a server allowing anonymous connections
// (ATRIUM_MQTT_ANONYMOUS=on: one connection publishes for many devices); "who may connect and publish" runs on one with
// the default (device credentials at CONNECT, own topic only, packet size limit, offline written before its PUBACK).
// Real database (PGlite, or PostgreSQL with DATABASE_URL).
import net from 'node:net';
import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.ts';
import { tenant } from '../src/db/schema/index.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { cameraDevice, nvrChannel } from '../src/modules/device/table.ts';
import { seal } from '../src/platform/secrets.ts';
import { deviceAccessOf } from '../src/modules/device-access/module.ts';
import { connectPassword, connectUsername, signedMessage, statusTopic } from '../src/modules/device-access/signing.ts';
import { MAX_PACKET_BYTES } from '../src/modules/device-access/broker.ts';
import { publish } from '../scripts/simulate.ts';
import { deviceStatusEvent } from '../src/modules/device-access/table.ts';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createTestApp, type TestApp } from './harness.ts';

type Line = { msg: string; topic?: string; reason?: string; level: number };

/** Tenant ids and device codes of this run only: parallel runs (PGlite and PostgreSQL) share the Mosquitto. */
const run = String(randomInt(10_000_000, 99_999_999));
const T = `9${run.slice(0, 7)}`;
const OTHER = `8${run.slice(0, 7)}`;
let serial = 0;
const code = (type = '132') =>
  `11010100${'00'}${type}${'0'}${String(randomInt(0, 999)).padStart(3, '0')}${String(++serial).padStart(3, '0')}`;

let t: TestApp;
const lines: Line[] = [];
let port = 0;
let pub: mqtt.MqttClient;

async function addTenant(app: TestApp, tenantId: string) {
  await app.services.db.insert(tenant).values({ id: newId(), tenantId, tenantName: `t${tenantId}` });
}

type Dev = { id: string; code: string; secret: string; tenantId: string };

async function addDevice(
  app: TestApp,
  tenantId: string,
  o: { type?: string; status?: number; secret?: string } = {},
): Promise<Dev> {
  const id = newId();
  const c = code(o.type);
  const secret = o.secret ?? `s-${newId()}`;
  await withTenant(app.services.db, tenantId, (tx) =>
    tx.insert(cameraDevice).values({
      id,
      tenantId,
      deviceCode: c,
      name: `cam ${c}`,
      deviceType: o.type ?? '132',
      regionCode: '11010100',
      secretSealed: seal(app.services, secret),
      status: o.status ?? 0,
    }),
  );
  return { id, code: c, secret, tenantId };
}

const deviceRow = (app: TestApp, d: Dev) =>
  withTenant(app.services.db, d.tenantId, async (tx) => {
    const [row] = await tx
      .select({ status: cameraDevice.status, lastSeen: cameraDevice.lastSeen, version: cameraDevice.version })
      .from(cameraDevice)
      .where(eq(cameraDevice.id, d.id));
    return row;
  });

const eventsOf = (app: TestApp, d: Dev) =>
  withTenant(app.services.db, d.tenantId, (tx) =>
    tx
      .select({
        from: deviceStatusEvent.fromStatus,
        to: deviceStatusEvent.toStatus,
        code: deviceStatusEvent.deviceCode,
      })
      .from(deviceStatusEvent)
      .where(and(eq(deviceStatusEvent.tenantId, d.tenantId), eq(deviceStatusEvent.deviceId, d.id)))
      .orderBy(deviceStatusEvent.at, deviceStatusEvent.id),
  );

/** The server's clock (the harness's, moved by tests). */
const now = (app: TestApp) => app.services.now().getTime();

async function send(
  client: mqtt.MqttClient,
  d: Dev,
  msg: { online?: boolean; ts: number; channels?: { channelNo: number; channelCode?: string; name?: string }[] },
  o: { secret?: string; tenantId?: string } = {},
) {
  const m = signedMessage(o.secret ?? d.secret, o.tenantId ?? d.tenantId, d.code, {
    online: msg.online ?? true,
    ts: msg.ts,
    channels: msg.channels,
  });
  // QoS 1: acknowledged once the broker handed the message to device access.
  await client.publishAsync(m.topic, m.payload, { qos: 1 });
  return m;
}

const access = () => deviceAccessOf(t.services)!.access;
const refusals = (topic: string, reason: string) =>
  lines.filter((l) => l.msg === 'device access: message refused' && l.topic === topic && l.reason === reason);

beforeAll(async () => {
  const stream = { write: (s: string) => void lines.push(JSON.parse(s) as Line) };
  t = await createTestApp({ mqtt: { port: 0, portExplicit: true, heartbeatSeconds: 60, anonymous: true } }, undefined, {
    logger: { level: 'info', stream },
  });
  port = deviceAccessOf(t.services)!.intake!.port!;
  await addTenant(t, T);
  await addTenant(t, OTHER);
  pub = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: `test-${run}` });
});

afterAll(async () => {
  await pub?.endAsync();
  await t?.close();
});

describe('device access through the embedded broker', () => {
  it('starts the embedded broker on the port the test asked for (a free one) and refuses subscriptions', async () => {
    expect(port).toBeGreaterThan(0);
    const sub = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`);
    // SUBACK 0x80: the subscription is refused (a status message is never passed on).
    await expect(sub.subscribeAsync('atrium/+/+/status')).rejects.toThrow(/Subscribe error/);
    await sub.endAsync();
  });

  it('a port named in ATRIUM_MQTT_PORT that is taken stops the start; the default one taken only logs', async () => {
    const taken = { mqtt: { port, portExplicit: true, heartbeatSeconds: 60 } };
    const explicit = await buildApp({ config: { ...t.config, ...taken }, db: t.services.db, signingKey: t.signingKey });
    await expect(explicit.app.ready()).rejects.toThrow(/EADDRINUSE/);
    await explicit.app.close();
    const logged: Line[] = [];
    const byDefault = await buildApp({
      config: { ...t.config, mqtt: { ...taken.mqtt, portExplicit: false } },
      db: t.services.db,
      signingKey: t.signingKey,
      logger: { level: 'error', stream: { write: (l: string) => void logged.push(JSON.parse(l) as Line) } },
    });
    await byDefault.app.ready();
    expect(logged.some((l) => l.msg.includes(`MQTT port ${port} is taken`))).toBe(true);
    await byDefault.app.close();
  });

  it('a signed heartbeat brings a device online with one event; further heartbeats move last_seen only', async () => {
    const d = await addDevice(t, T);
    const before = await deviceRow(t, d);
    const ts = now(t) - 1000;
    await send(pub, d, { ts });
    await access().flush();
    const row = await deviceRow(t, d);
    expect(row.status).toBe(1);
    expect(row.lastSeen?.getTime()).toBe(ts);
    expect(row.version).toBe(before.version);
    expect(await eventsOf(t, d)).toEqual([{ from: 0, to: 1, code: d.code }]);

    await send(pub, d, { ts: ts + 500 });
    await send(pub, d, { ts: ts + 900 });
    await access().flush();
    const again = await deviceRow(t, d);
    expect(again.lastSeen?.getTime()).toBe(ts + 900);
    expect(again.version).toBe(before.version);
    expect(await eventsOf(t, d)).toHaveLength(1);
  });

  it('online:false takes the device offline at once, with an event', async () => {
    const d = await addDevice(t, T);
    const ts = now(t) - 2000;
    await send(pub, d, { ts });
    await access().flush();
    expect((await deviceRow(t, d)).status).toBe(1);
    await send(pub, d, { ts: ts + 1, online: false });
    await access().flush();
    expect((await deviceRow(t, d)).status).toBe(0);
    expect((await deviceRow(t, d)).lastSeen?.getTime()).toBe(ts + 1);
    expect((await eventsOf(t, d)).map((e) => `${e.from}>${e.to}`)).toEqual(['0>1', '1>0']);
    // Offline again: no second event.
    await send(pub, d, { ts: ts + 2, online: false });
    await access().flush();
    expect(await eventsOf(t, d)).toHaveLength(2);
  });

  it('a device silent for 3 heartbeat intervals goes offline with an event (controlled clock)', async () => {
    const d = await addDevice(t, T);
    await send(pub, d, { ts: now(t) });
    await access().flush();
    expect((await deviceRow(t, d)).status).toBe(1);
    // Two intervals and a half: still online.
    t.clock.offsetMs += 150_000;
    await access().sweep();
    expect((await deviceRow(t, d)).status).toBe(1);
    t.clock.offsetMs += 31_000;
    expect(await access().sweep()).toBeGreaterThanOrEqual(1);
    expect((await deviceRow(t, d)).status).toBe(0);
    expect((await eventsOf(t, d)).map((e) => `${e.from}>${e.to}`)).toEqual(['0>1', '1>0']);
    // Sweeping again changes nothing.
    await access().sweep();
    expect(await eventsOf(t, d)).toHaveLength(2);
    // Back with a heartbeat at the moved clock.
    await send(pub, d, { ts: now(t) });
    await access().flush();
    expect((await deviceRow(t, d)).status).toBe(1);
    expect(await eventsOf(t, d)).toHaveLength(3);
  });

  it('forged, stale, replayed, unknown, disabled and foreign messages change nothing and are logged once each', async () => {
    const d = await addDevice(t, T);
    const ts = now(t) - 10_000;
    await send(pub, d, { ts });
    await access().flush();
    const base = await deviceRow(t, d);
    const topic = statusTopic(T, d.code);

    const disabled = await addDevice(t, T, { status: 2 });
    const foreign = await addDevice(t, OTHER);
    for (let i = 0; i < 5; i++) {
      // forged: another secret
      await send(pub, d, { ts: ts + 100 + i }, { secret: 'not-the-secret' });
      // stale: six minutes old
      await send(pub, d, { ts: now(t) - 6 * 60_000 + i });
      // replayed: the accepted ts again, and an older one
      await send(pub, d, { ts });
      await send(pub, d, { ts: ts - 1 - i });
      // unknown device
      await send(pub, { ...d, code: '11010100001329999999' }, { ts: ts + 100 + i });
      // disabled device, correctly signed
      await send(pub, disabled, { ts: ts + 100 + i });
      // another tenant's device on this tenant's topic, signed with its own secret
      await send(pub, foreign, { ts: ts + 100 + i }, { tenantId: T });
      // not JSON
      await pub.publishAsync(topic, 'hello', { qos: 1 });
    }
    await access().flush();

    const after = await deviceRow(t, d);
    expect(after).toEqual(base);
    expect(await eventsOf(t, d)).toHaveLength(1);
    expect((await deviceRow(t, disabled)).status).toBe(2);
    expect((await deviceRow(t, disabled)).lastSeen).toBeNull();
    expect((await deviceRow(t, foreign)).status).toBe(0);
    expect(await eventsOf(t, foreign)).toEqual([]);

    expect(refusals(topic, 'bad-signature')).toHaveLength(1);
    expect(refusals(topic, 'stale')).toHaveLength(1);
    expect(refusals(topic, 'replay')).toHaveLength(1);
    expect(refusals(topic, 'bad-payload')).toHaveLength(1);
    expect(refusals(statusTopic(T, '11010100001329999999'), 'unknown-device')).toHaveLength(1);
    expect(refusals(statusTopic(T, disabled.code), 'disabled')).toHaveLength(1);
    expect(refusals(statusTopic(T, foreign.code), 'unknown-device')).toHaveLength(1);
    // Nothing secret in the log lines.
    expect(JSON.stringify(lines)).not.toContain(d.secret);
  });

  it('a device edited by staff meanwhile: the message is checked again against the new row, version untouched', async () => {
    const d = await addDevice(t, T);
    await send(pub, d, { ts: now(t) - 5000 });
    await access().flush();
    // Staff edit (version + 1) and a heartbeat accepted on the cached row before the write.
    await withTenant(t.services.db, T, (tx) =>
      tx.update(cameraDevice).set({ name: 'renamed', version: 2 }).where(eq(cameraDevice.id, d.id)),
    );
    const ts = now(t) - 4000;
    await send(pub, d, { ts });
    await access().flush();
    await access().flush();
    const row = await deviceRow(t, d);
    expect(row.lastSeen?.getTime()).toBe(ts);
    expect(row.version).toBe(2);

    // Disabled by staff: the next heartbeat (accepted on the cached row) is refused when checked again.
    await withTenant(t.services.db, T, (tx) =>
      tx.update(cameraDevice).set({ status: 2, version: 3 }).where(eq(cameraDevice.id, d.id)),
    );
    await send(pub, d, { ts: ts + 1 });
    await access().flush();
    await access().flush();
    const disabled = await deviceRow(t, d);
    expect(disabled.status).toBe(2);
    expect(disabled.lastSeen?.getTime()).toBe(ts);
    expect(refusals(statusTopic(T, d.code), 'disabled')).toHaveLength(1);
  });

  it("a message with channels replaces the NVR's channel list", async () => {
    const nvr = await addDevice(t, T, { type: '118' });
    const ts = now(t) - 3000;
    await send(pub, nvr, {
      ts,
      channels: [
        { channelNo: 1, channelCode: '11010100001310000001', name: 'Gate' },
        { channelNo: 2, channelCode: '11010100001310000002', name: '大门' },
      ],
    });
    await access().flush();
    const channels = () =>
      withTenant(t.services.db, T, (tx) =>
        tx
          .select({ no: nvrChannel.channelNo, name: nvrChannel.name })
          .from(nvrChannel)
          .where(and(eq(nvrChannel.nvrDeviceId, nvr.id), eq(nvrChannel.isDeleted, 0)))
          .orderBy(nvrChannel.channelNo),
      );
    expect(await channels()).toEqual([
      { no: 1, name: 'Gate' },
      { no: 2, name: '大门' },
    ]);
    // A later list without channel 2; a heartbeat without channels leaves the list alone.
    await send(pub, nvr, { ts: ts + 1, channels: [{ channelNo: 1, name: 'Gate 1' }] });
    await access().flush();
    await send(pub, nvr, { ts: ts + 2 });
    await access().flush();
    expect(await channels()).toEqual([{ no: 1, name: 'Gate 1' }]);
    expect((await deviceRow(t, nvr)).status).toBe(1);
    // A tampered channel list (signature over another list) is refused.
    const m = signedMessage(nvr.secret, T, nvr.code, { online: true, ts: ts + 3, channels: [{ channelNo: 9 }] });
    const body = JSON.parse(m.payload) as Record<string, unknown>;
    body.channels = [{ channelNo: 7 }];
    await pub.publishAsync(m.topic, JSON.stringify(body), { qos: 1 });
    await access().flush();
    expect(await channels()).toEqual([{ no: 1, name: 'Gate 1' }]);
  });

  it('many devices at once: every accepted heartbeat is written, none lost', async () => {
    const devs = await Promise.all(Array.from({ length: 200 }, () => addDevice(t, T)));
    const start = now(t) - 60_000;
    for (let round = 0; round < 5; round++)
      await Promise.all(devs.map((d) => send(pub, d, { ts: start + round * 1000 })));
    await access().flush();
    for (const d of devs.slice(0, 20)) expect((await deviceRow(t, d)).lastSeen?.getTime()).toBe(start + 4000);
    const online = await withTenant(t.services.db, T, (tx) =>
      tx
        .select({ id: cameraDevice.id })
        .from(cameraDevice)
        .where(and(eq(cameraDevice.tenantId, T), eq(cameraDevice.status, 1))),
    );
    const ids = new Set(online.map((r) => r.id));
    expect(devs.every((d) => ids.has(d.id))).toBe(true);
  });

  it('a flood of refused messages on many topics writes a bounded number of log lines', async () => {
    const d = await addDevice(t, T);
    const before = lines.length;
    for (let i = 0; i < 300; i++)
      await send(pub, { ...d, code: `1101010000132${String(9_000_000 + i)}` }, { ts: now(t) - 1000 });
    await access().flush();
    const refusalLines = lines.slice(before).filter((l) => l.msg.startsWith('device access: message refused'));
    // At most 20 lines per 10 s window (the run may straddle two), plus a line counting what was not logged.
    expect(refusalLines.length).toBeLessThanOrEqual(41);
    expect(access().stats.refused['unknown-device']).toBeGreaterThanOrEqual(300);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A device's own connection: username `{tenantId}/{code}`, its connect password (or the one given). */
const connectAs = (p: number, d: Dev, password?: string) =>
  mqtt.connectAsync(`mqtt://127.0.0.1:${p}`, {
    username: connectUsername(d.tenantId, d.code),
    password: password ?? connectPassword(d.secret, d.tenantId, d.code),
    reconnectPeriod: 0,
  });

/** A QoS 1 publish: 'puback' when acknowledged, 'closed' when the broker closed the connection first. */
function outcome(client: mqtt.MqttClient, topic: string, payload: string | Buffer): Promise<'puback' | 'closed'> {
  client.on('error', () => undefined);
  return new Promise((resolve) => {
    client.once('close', () => resolve('closed'));
    client.publish(topic, payload, { qos: 1 }, (err) => {
      if (!err) resolve('puback');
    });
  });
}

/** The CONNACK refusal of a CONNECT (mqtt.js error code: 4 bad username or password, 5 not authorized). */
async function refusedConnect(p: number, o: mqtt.IClientOptions): Promise<number | undefined> {
  try {
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${p}`, { reconnectPeriod: 0, ...o });
    await c.endAsync();
    return undefined;
  } catch (err) {
    return (err as { code?: number }).code;
  }
}

describe('who may connect and publish (the default: device credentials at CONNECT)', () => {
  let sec: TestApp;
  let secPort = 0;
  const secLines: Line[] = [];
  const S = `6${run.slice(0, 7)}`;

  beforeAll(async () => {
    const stream = { write: (l: string) => void secLines.push(JSON.parse(l) as Line) };
    sec = await createTestApp({ mqtt: { port: 0, portExplicit: true, heartbeatSeconds: 60 } }, undefined, {
      logger: { level: 'info', stream },
    });
    secPort = deviceAccessOf(sec.services)!.intake!.port!;
    await addTenant(sec, S);
  });
  afterAll(async () => {
    await sec?.close();
  });
  const secAccess = () => deviceAccessOf(sec.services)!.access;

  it('a CONNECT without credentials is refused (not authorized); ATRIUM_MQTT_ANONYMOUS=on allows it', async () => {
    expect(await refusedConnect(secPort, {})).toBe(5);
    // The server of the message checks runs with anonymous connections allowed.
    expect(await refusedConnect(port, {})).toBeUndefined();
    expect(secLines.some((l) => l.msg === 'device access: MQTT connection without credentials refused')).toBe(true);
  });

  it('a wrong password, an unknown device, a disabled device, a malformed username are refused', async () => {
    const d = await addDevice(sec, S);
    const disabled = await addDevice(sec, S, { status: 2 });
    const user = connectUsername(S, d.code);
    // The password of another device, of the same device under another tenant, a signature of other text, empty.
    expect(
      await refusedConnect(secPort, { username: user, password: connectPassword('other-secret', S, d.code) }),
    ).toBe(4);
    expect(await refusedConnect(secPort, { username: user, password: connectPassword(d.secret, OTHER, d.code) })).toBe(
      4,
    );
    expect(
      await refusedConnect(secPort, { username: user, password: `${connectPassword(d.secret, S, d.code)}x` }),
    ).toBe(4);
    expect(await refusedConnect(secPort, { username: user })).toBe(4);
    expect(
      await refusedConnect(secPort, {
        username: connectUsername(S, '11010100001329999999'),
        password: connectPassword(d.secret, S, '11010100001329999999'),
      }),
    ).toBe(4);
    expect(
      await refusedConnect(secPort, {
        username: connectUsername(S, disabled.code),
        password: connectPassword(disabled.secret, S, disabled.code),
      }),
    ).toBe(4);
    expect(await refusedConnect(secPort, { username: d.code, password: connectPassword(d.secret, S, d.code) })).toBe(4);
    // The right one connects and its heartbeat is written.
    const c = await connectAs(secPort, d);
    const ts = now(sec) - 1000;
    await send(c, d, { ts });
    await secAccess().flush();
    expect((await deviceRow(sec, d)).lastSeen?.getTime()).toBe(ts);
    await c.endAsync();
    // No password in the log.
    expect(JSON.stringify(secLines)).not.toContain(connectPassword(d.secret, S, d.code));
  });

  it("a device publishing to another device's topic is disconnected without PUBACK; nothing is written", async () => {
    const a = await addDevice(sec, S);
    const b = await addDevice(sec, S);
    const c = await connectAs(secPort, a);
    // Even correctly signed with b's secret (a device that knows another's secret still cannot use its topic).
    const m = signedMessage(b.secret, S, b.code, { online: true, ts: now(sec) - 1000 });
    expect(await outcome(c, m.topic, m.payload)).toBe('closed');
    await secAccess().flush();
    expect((await deviceRow(sec, b)).status).toBe(0);
    expect((await deviceRow(sec, b)).lastSeen).toBeNull();
    expect(await eventsOf(sec, b)).toEqual([]);
    // Any other topic too.
    const c2 = await connectAs(secPort, a);
    expect(await outcome(c2, `atrium/${S}/${a.code}/other`, 'x')).toBe('closed');
    await c.endAsync(true);
    await c2.endAsync(true);
  });

  it('a 5 MB PUBLISH closes the connection after its header: no PUBACK, the body never read', async () => {
    const d = await addDevice(sec, S);
    const c = await connectAs(secPort, d);
    const before = secLines.length;
    const received = secAccess().stats.received;
    const big = Buffer.alloc(5 * 1024 * 1024, 0x20);
    expect(await outcome(c, statusTopic(S, d.code), big)).toBe('closed');
    await c.endAsync(true);
    const line = secLines
      .slice(before)
      .find((l) => l.msg === 'device access: MQTT packet too large; connection closed') as
      (Line & { announced: number; bytesRead: number }) | undefined;
    expect(line?.announced).toBeGreaterThan(5 * 1024 * 1024);
    // What the server read of that connection: the CONNECT and the first chunks, not the 5 MB.
    expect(line!.bytesRead).toBeLessThan(1024 * 1024);
    // Never reached device access.
    expect(secAccess().stats.received).toBe(received);
    // Below the limit is still read (the payload rule of 256 kB then refuses it as bad-payload).
    const c2 = await connectAs(secPort, d);
    expect(await outcome(c2, statusTopic(S, d.code), Buffer.alloc(MAX_PACKET_BYTES - 1024, 0x20))).toBe('puback');
    await c2.endAsync();
  });

  it('before authenticating: a CONNECT followed by a 5 MB PUBLISH header is closed unread', async () => {
    const sock = net.connect(secPort, '127.0.0.1');
    await new Promise((r) => sock.once('connect', r));
    const received: Buffer[] = [];
    sock.on('data', (b: Buffer) => received.push(b));
    sock.on('error', () => undefined);
    const closed = new Promise((r) => sock.once('close', r));
    // CONNECT (MQTT 3.1.1, client id "x", no credentials), then PUBLISH QoS 1 announcing 5 MB.
    const connect = Buffer.from([0x10, 13, 0, 4, 0x4d, 0x51, 0x54, 0x54, 4, 2, 0, 60, 0, 1, 0x78]);
    const len = 5 * 1024 * 1024;
    const varLen = [(len & 0x7f) | 0x80, ((len >> 7) & 0x7f) | 0x80, ((len >> 14) & 0x7f) | 0x80, (len >> 21) & 0x7f];
    sock.write(Buffer.concat([connect, Buffer.from([0x32, ...varLen])]));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let i = 0; i < 80 && !sock.destroyed; i++) {
      if (!sock.write(chunk)) await Promise.race([new Promise((r) => sock.once('drain', r)), closed]);
    }
    // Closed by the server (not left open waiting for the rest of the body).
    expect(await Promise.race([closed.then(() => 'closed'), sleep(5000).then(() => 'open')])).toBe('closed');
    sock.destroy();
    // At most a CONNACK came back (refused: 0x20 0x02 0x00 0x05), never a PUBACK (0x40).
    const bytes = Buffer.concat(received);
    expect(bytes.includes(0x40)).toBe(false);
  });

  it('the simulator connects as each device with its credentials', async () => {
    const devs = await Promise.all([addDevice(sec, S), addDevice(sec, S), addDevice(sec, S)]);
    const r = await publish({
      url: `mqtt://127.0.0.1:${secPort}`,
      tenant: S,
      devices: devs.map((d) => ({ code: d.code, secret: d.secret })),
      rate: 100,
      count: 6,
      qos: 1,
    });
    expect(r.published).toBe(6);
    await secAccess().flush();
    for (const d of devs) expect((await deviceRow(sec, d)).lastSeen?.getTime()).toBe(r.lastTs[d.code]);
  });

  it('an online:false published at QoS 1 is in the database when its PUBACK arrives (no flush awaited)', async () => {
    const acc = secAccess();
    const d = await addDevice(sec, S);
    const c = await connectAs(secPort, d);
    const ts = now(sec) - 3000;
    await send(c, d, { ts });
    await acc.flush();
    expect((await deviceRow(sec, d)).status).toBe(1);
    // No batch flush during the test: the timer armed with 200 ms fires once more, then waits an hour.
    acc.options.flushMs = 3_600_000;
    await sleep(400);
    const heartbeat = await addDevice(sec, S);
    const hc = await connectAs(secPort, heartbeat);
    await send(hc, heartbeat, { ts: ts + 1 });
    await send(c, d, { ts: ts + 1, online: false });
    // Read right after the PUBACK, without awaiting any flush.
    const row = await deviceRow(sec, d);
    expect(row.status).toBe(0);
    expect(row.lastSeen?.getTime()).toBe(ts + 1);
    expect((await eventsOf(sec, d)).map((e) => `${e.from}>${e.to}`)).toEqual(['0>1', '1>0']);
    // A heartbeat's PUBACK promises less: it waits in memory for the next flush.
    expect((await deviceRow(sec, heartbeat)).lastSeen).toBeNull();
    await acc.flush();
    expect((await deviceRow(sec, heartbeat)).lastSeen?.getTime()).toBe(ts + 1);
    await c.endAsync();
    await hc.endAsync();
  });
});

/** Whether the machine's Mosquitto answers on 127.0.0.1:1883. */
const mosquitto = await new Promise<boolean>((resolve) => {
  const s = net.connect(1883, '127.0.0.1');
  s.once('connect', () => {
    s.destroy();
    resolve(true);
  });
  s.once('error', () => resolve(false));
});

describe.skipIf(!mosquitto)('device access through an external broker (the machine Mosquitto)', () => {
  it('subscribes at ATRIUM_MQTT_URL and brings a device online; a forged message changes nothing', async () => {
    const ext = await createTestApp({
      mqtt: { port: null, portExplicit: false, url: 'mqtt://127.0.0.1:1883', heartbeatSeconds: 60 },
    });
    const client = await mqtt.connectAsync('mqtt://127.0.0.1:1883', { clientId: `test-dev-${run}` });
    try {
      const X = `7${run.slice(0, 7)}`;
      await addTenant(ext, X);
      const rt = deviceAccessOf(ext.services)!;
      await rt.intake!.ready;
      const d = await addDevice(ext, X);
      const forged = await addDevice(ext, X);
      const ts = now(ext) - 1000;
      await send(client, d, { ts });
      await send(client, forged, { ts }, { secret: 'wrong' });
      // The broker passes the message on asynchronously: wait until it was written.
      for (let i = 0; i < 100 && (await deviceRow(ext, d)).status !== 1; i++) {
        await new Promise((r) => setTimeout(r, 50));
        await rt.access.flush();
      }
      expect((await deviceRow(ext, d)).status).toBe(1);
      expect((await deviceRow(ext, d)).lastSeen?.getTime()).toBe(ts);
      expect(await eventsOf(ext, d)).toHaveLength(1);
      expect((await deviceRow(ext, forged)).status).toBe(0);
    } finally {
      await client.endAsync();
      await ext.close();
    }
  });
});

describe('device access configuration', () => {
  it('embedded broker on 1884 by default, off under NODE_ENV=test or with 0, replaced by ATRIUM_MQTT_URL', () => {
    expect(loadConfig({}).mqtt).toEqual({
      port: 1884,
      portExplicit: false,
      url: undefined,
      heartbeatSeconds: 60,
      anonymous: false,
      shareGroup: 'atrium',
    });
    expect(loadConfig({ ATRIUM_MQTT_ANONYMOUS: 'on' }).mqtt.anonymous).toBe(true);
    expect(() => loadConfig({ ATRIUM_MQTT_ANONYMOUS: 'yes' })).toThrow(/ATRIUM_MQTT_ANONYMOUS/);
    expect(loadConfig({ NODE_ENV: 'test' }).mqtt.port).toBeNull();
    expect(loadConfig({ NODE_ENV: 'test', ATRIUM_MQTT_PORT: '18883' }).mqtt).toMatchObject({
      port: 18883,
      portExplicit: true,
    });
    expect(loadConfig({ ATRIUM_MQTT_PORT: '0' }).mqtt.port).toBeNull();
    expect(loadConfig({ ATRIUM_MQTT_URL: 'mqtt://127.0.0.1:1883' }).mqtt).toMatchObject({
      port: null,
      url: 'mqtt://127.0.0.1:1883',
    });
    expect(loadConfig({ ATRIUM_DEVICE_HEARTBEAT_SECONDS: '30' }).mqtt.heartbeatSeconds).toBe(30);
    expect(() => loadConfig({ ATRIUM_MQTT_URL: 'http://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ ATRIUM_MQTT_PORT: '70000' })).toThrow(/ATRIUM_MQTT_PORT/);
  });
});
