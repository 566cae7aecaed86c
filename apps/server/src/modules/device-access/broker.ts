import net from 'node:net';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { TOPIC_PREFIX } from './signing.ts';

/** Where status messages come from (docs/devices.md "Device access"): the embedded broker or an external one. */
export type Intake = {
  kind: 'embedded' | 'external';
  /** The embedded broker's port (the one the system picked when asked for 0). */
  port?: number;
  /** Resolves once messages can arrive (listening, or subscribed at the external broker). */
  ready: Promise<void>;
  close(): Promise<void>;
};

type OnMessage = (topic: string, payload: Buffer) => void;

/**
 * The embedded broker: aedes on a TCP server. Devices only publish: every subscription is refused (a status message
 * is never passed on to anyone), retained flags are dropped (nothing is kept per topic), `$SYS/` is refused.
 */
export async function startEmbedded(port: number, host: string, onMessage: OnMessage): Promise<Intake> {
  const broker = await Aedes.createBroker({ heartbeatInterval: 60_000, drainTimeout: 10_000 });
  broker.authorizeSubscribe = (_client, _sub, done) => done(null, null);
  broker.authorizePublish = (_client, packet, done) => {
    if (packet.topic.startsWith('$')) return done(new Error('reserved topic'));
    packet.retain = false;
    done(null);
  };
  broker.published = (packet, client, done) => {
    if (client) onMessage(packet.topic, packet.payload as Buffer);
    done();
  };
  const server = net.createServer((socket) => broker.handle(socket));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await new Promise<void>((r) => broker.close(() => r()));
    throw err;
  }
  return {
    kind: 'embedded',
    port: (server.address() as net.AddressInfo).port,
    ready: Promise.resolve(),
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => broker.close(() => r()));
      await closed;
    },
  };
}

/**
 * An external broker (ATRIUM_MQTT_URL, e.g. the machine's Mosquitto): the server subscribes to every status topic
 * and reconnects on its own. Several servers on one broker each receive every message; the writes are idempotent.
 */
export function startExternal(url: string, onMessage: OnMessage, log: FastifyBaseLogger): Intake {
  const client = mqtt.connect(url, {
    clientId: `atrium-${os.hostname().slice(0, 20)}-${process.pid}-${randomBytes(3).toString('hex')}`,
    clean: true,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });
  const topic = `${TOPIC_PREFIX}/+/+/status`;
  let warnedAt = 0;
  let subscribed!: () => void;
  const ready = new Promise<void>((r) => (subscribed = r));
  client.on('connect', () => {
    client.subscribe(topic, { qos: 1 }, (err) => {
      if (err) log.error({ err, url: redact(url) }, 'device access: subscribing at the MQTT broker failed');
      else {
        log.info({ url: redact(url), topic }, 'device access: subscribed at the MQTT broker');
        subscribed();
      }
    });
  });
  client.on('message', (t, payload) => onMessage(t, payload));
  client.on('error', (err) => {
    const now = Date.now();
    if (now - warnedAt < 60_000) return;
    warnedAt = now;
    log.error({ err: err.message, url: redact(url) }, 'device access: MQTT broker connection failed; retrying');
  });
  return {
    kind: 'external',
    ready,
    async close() {
      await client.endAsync();
    },
  };
}

/** A broker URL without its password, for the logs. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'mqtt://…';
  }
}
