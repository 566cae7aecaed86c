// Device messages are processed once across servers (docs/cluster.md "Device messages once"): two servers on one
// database subscribe to one Mosquitto (started by this test on a loopback port) through a shared subscription; N
// signed messages are received N times in all, not 2N, and written once; one server stops while messages flow and the
// other takes the rest: every device's last message is in the database. Real database (PGlite, or PostgreSQL with
// DATABASE_URL).
import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.ts';
import { tenant } from '../src/db/schema/index.ts';
import { cameraDevice } from '../src/modules/device/table.ts';
import { subscriptionTopic } from '../src/modules/device-access/broker.ts';
import { deviceAccessOf } from '../src/modules/device-access/module.ts';
import { signedMessage } from '../src/modules/device-access/signing.ts';
import { deviceStatusEvent } from '../src/modules/device-access/table.ts';
import { loadConfig } from '../src/config.ts';
import { seal } from '../src/platform/secrets.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { createTestApp, secondInstance, type TestApp } from './harness.ts';
import { hasMosquitto, startMosquitto } from './support/mosquitto.ts';

const run = String(randomInt(1_000_000, 9_999_999));
const T = `4${run}`;
const N = 200;

type Dev = { id: string; code: string; secret: string };
let broker: Awaited<ReturnType<typeof startMosquitto>>;
let a: TestApp;
let b: TestApp;
let bClosed = false;
let pub: mqtt.MqttClient;
const devices: Dev[] = [];

const stats = (app: TestApp) => deviceAccessOf(app.services)!.access.stats;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function publishAll(ts: number, during?: (i: number) => Promise<void>) {
  for (let i = 0; i < devices.length; i++) {
    const d = devices[i];
    const m = signedMessage(d.secret, T, d.code, { online: true, ts });
    await pub.publishAsync(m.topic, m.payload, { qos: 1 });
    await during?.(i);
  }
}

/** Devices of T whose last message is `ts`. */
const seenAt = (ts: number) =>
  withTenant(a.services.db, T, async (tx) => {
    const [r] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(cameraDevice)
      .where(and(eq(cameraDevice.tenantId, T), eq(cameraDevice.status, 1), eq(cameraDevice.lastSeen, new Date(ts))));
    return r.n;
  });

async function waitFor(check: () => Promise<boolean>, ms = 15_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) return false;
    await sleep(50);
  }
  return true;
}

beforeAll(async () => {
  if (!hasMosquitto) return;
  broker = await startMosquitto();
  const mqttConfig = { port: null, portExplicit: false, url: broker.url, heartbeatSeconds: 60, shareGroup: `g${run}` };
  a = await createTestApp({ mqtt: mqttConfig });
  b = await secondInstance(a);
  await a.services.db.insert(tenant).values({ id: newId(), tenantId: T, tenantName: `t${T}` });
  for (let i = 0; i < N; i++) {
    const code = `110101000013200${String(i).padStart(5, '0')}`;
    devices.push({ id: newId(), code, secret: `s-${run}-${i}` });
  }
  await withTenant(a.services.db, T, (tx) =>
    tx.insert(cameraDevice).values(
      devices.map((d) => ({
        id: d.id,
        tenantId: T,
        deviceCode: d.code,
        name: `cam ${d.code}`,
        deviceType: '132',
        regionCode: '11010100',
        secretSealed: seal(a.services, d.secret),
        status: 0,
      })),
    ),
  );
  await Promise.all([deviceAccessOf(a.services)!.intake!.ready, deviceAccessOf(b.services)!.intake!.ready]);
  pub = await mqtt.connectAsync(broker.url, { clientId: `pub-${run}` });
});

afterAll(async () => {
  await pub?.endAsync();
  if (!bClosed) await b?.close();
  await a?.close();
  await broker?.stop();
});

describe('configuration', () => {
  it('ATRIUM_MQTT_SHARE_GROUP names the group (default atrium); off subscribes every server to every message', () => {
    expect(loadConfig({ ATRIUM_MQTT_URL: 'mqtt://127.0.0.1:1883' }).mqtt.shareGroup).toBe('atrium');
    expect(loadConfig({ ATRIUM_MQTT_SHARE_GROUP: 'city-a' }).mqtt.shareGroup).toBe('city-a');
    expect(loadConfig({ ATRIUM_MQTT_SHARE_GROUP: 'off' }).mqtt.shareGroup).toBeNull();
    expect(() => loadConfig({ ATRIUM_MQTT_SHARE_GROUP: 'a/b' })).toThrow(/ATRIUM_MQTT_SHARE_GROUP/);
    expect(subscriptionTopic('atrium')).toBe('$share/atrium/atrium/+/+/status');
    expect(subscriptionTopic(null)).toBe('atrium/+/+/status');
  });
});

describe.skipIf(!hasMosquitto)('device messages once across two servers (a Mosquitto of the test)', () => {
  it(`${N} messages through the shared subscription: ${N} received in all, not ${2 * N}; each device written once`, async () => {
    const ts = Date.now() - 2000;
    await publishAll(ts);
    expect(await waitFor(async () => stats(a).received + stats(b).received >= N)).toBe(true);
    // Anything sent twice would arrive within this pause.
    await sleep(500);
    expect(stats(a).received + stats(b).received).toBe(N);
    // Both servers took a share.
    expect(stats(a).received).toBeGreaterThan(0);
    expect(stats(b).received).toBeGreaterThan(0);
    await Promise.all([deviceAccessOf(a.services)!.access.flush(), deviceAccessOf(b.services)!.access.flush()]);
    expect(await seenAt(ts)).toBe(N);
    const events = await withTenant(a.services.db, T, (tx) =>
      tx.select({ id: deviceStatusEvent.deviceId }).from(deviceStatusEvent).where(eq(deviceStatusEvent.tenantId, T)),
    );
    expect(events).toHaveLength(N);
  });

  it('one server stops while messages flow: the other takes the rest, every message is written once', async () => {
    const before = { a: stats(a).received, b: stats(b).received };
    const ts = Date.now() - 1000;
    let closing: Promise<void> | undefined;
    // Halfway through, the second server stops (a graceful close: it leaves the group, writes what it holds).
    await publishAll(ts, async (i) => {
      if (i === N / 2) {
        bClosed = true;
        closing = b.close();
      }
    });
    await closing;
    expect(
      await waitFor(async () => {
        await deviceAccessOf(a.services)!.access.flush();
        return (await seenAt(ts)) === N;
      }),
    ).toBe(true);
    const got = { a: stats(a).received - before.a, b: stats(b).received - before.b };
    expect(got.a + got.b).toBe(N);
    // The stopped server had taken some before it left; the other took everything after.
    expect(got.b).toBeGreaterThan(0);
    expect(got.a).toBeGreaterThanOrEqual(N / 2);
  });

  it('a server whose connection dies (as under SIGKILL): the broker gives the next messages to the other at once', async () => {
    // A third server joins the group, then its connection dies; the first one is the only other left.
    const c = await secondInstance(a);
    try {
      await deviceAccessOf(c.services)!.intake!.ready;
      const before = { a: stats(a).received, c: stats(c).received };
      deviceAccessOf(c.services)!.intake!.cut!();
      const cutAt = Date.now();
      const ts = Date.now() - 1500;
      await publishAll(ts);
      expect(
        await waitFor(async () => {
          await deviceAccessOf(a.services)!.access.flush();
          return (await seenAt(ts)) === N;
        }),
      ).toBe(true);
      // Every message published after the cut went to the living server, none to the dead one.
      expect(stats(a).received - before.a).toBe(N);
      expect(stats(c).received - before.c).toBe(0);
      console.log(
        `[cluster-mqtt] ${N} messages after a cut connection, all written by the other server in ${Date.now() - cutAt} ms`,
      );
    } finally {
      await c.close();
    }
  });
});
