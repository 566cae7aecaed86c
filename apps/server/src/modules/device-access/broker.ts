import net from 'node:net';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { Aedes, type AuthErrorCode, type Client } from 'aedes';
import mqtt from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { statusTopic, TOPIC_PREFIX } from './signing.ts';

/** Where status messages come from (docs/devices.md "Device access"): the embedded broker or an external one. */
export type Intake = {
  kind: 'embedded' | 'external';
  /** The embedded broker's port (the one the system picked when asked for 0). */
  port?: number;
  /** Resolves once messages can arrive (listening, or subscribed at the external broker). */
  ready: Promise<void>;
  /** Whether messages can arrive now: listening, or connected and subscribed at the external broker (readiness). */
  connected(): boolean;
  close(): Promise<void>;
  /** Tests: the external broker's connection cut as a killed process's would be (no unsubscribe, no reconnect). */
  cut?(): void;
};

/**
 * The largest MQTT packet the embedded broker reads: a status message's 256 kB payload plus room for its topic and
 * headers. A packet announcing more closes the connection before its body is read (docs/devices.md "Who may connect
 * and publish").
 */
export const MAX_PACKET_BYTES = 256 * 1024 + 4096;

/** What the embedded broker asks of device access (ingest.ts). */
export type EmbeddedHooks = {
  /** A message; answers a promise when its PUBACK must wait for its write (`ack`: QoS 1 or 2). */
  receive(topic: string, payload: Buffer, ack: boolean): Promise<void> | undefined;
  /** Whether `password` is the connect password of the device. */
  authenticate(tenantId: string, code: string, password: string): Promise<boolean>;
  /** A CONNECT without credentials is accepted (ATRIUM_MQTT_ANONYMOUS=on). */
  anonymous: boolean;
  log: FastifyBaseLogger;
};

/** The device a connection authenticated as. */
type Identity = { tenantId: string; code: string };

/** The parts of mqtt-packet's parser the size limit hooks into (aedes offers no maximum packet size). */
type ParserInternals = { _parseLength(): boolean; _emitError(err: Error): void; packet: { length: number } };

/**
 * Makes the client's parser refuse a packet whose announced remaining length exceeds `max`: the parser reads the
 * fixed header, and the error closes the connection (aedes `_onError`) before the body is buffered. False when the
 * parser is not the one this was written for (an aedes or mqtt-packet upgrade): the caller then refuses the connection.
 */
function limitPacketSize(client: Client, max: number, refused: (length: number) => void): boolean {
  // aedes's Client type does not declare the mqtt-packet parser it keeps in `_parser`.
  const parser = (client as unknown as { _parser?: ParserInternals })._parser;
  if (!parser || typeof parser._parseLength !== 'function' || typeof parser._emitError !== 'function') return false;
  const parseLength = parser._parseLength;
  parser._parseLength = function (this: ParserInternals) {
    const complete = parseLength.call(this);
    if (complete && this.packet.length > max) {
      refused(this.packet.length);
      this._emitError(new Error(`MQTT packet of ${this.packet.length} bytes refused (at most ${max})`));
      return false;
    }
    return complete;
  };
  return true;
}

/** At most one warn line per key per 10 s; the next one says how many were not logged. */
function limitedWarn(log: FastifyBaseLogger) {
  const seen = new Map<string, { at: number; suppressed: number }>();
  return (key: string, fields: Record<string, unknown>, msg: string) => {
    const now = Date.now();
    const s = seen.get(key);
    if (s && now - s.at < 10_000) {
      s.suppressed++;
      return;
    }
    if (seen.size > 1000) seen.clear();
    seen.set(key, { at: now, suppressed: 0 });
    log.warn({ ...fields, suppressed: s?.suppressed ?? 0 }, msg);
  };
}

const authError = (returnCode: 4 | 5, message: string) =>
  Object.assign(new Error(message), { returnCode: returnCode as AuthErrorCode });

/**
 * The embedded broker: aedes on a TCP server (docs/devices.md "Who may connect and publish"). A CONNECT must carry a
 * device's credentials (username `{tenantId}/{deviceCode}`, its connect password) unless anonymous connections are
 * allowed; an authenticated device publishes only to its own status topic. Packets over MAX_PACKET_BYTES close the
 * connection unread. Devices only publish: every subscription is refused (a status message is never passed on to
 * anyone), retained flags are dropped (nothing is kept per topic), `$`-topics are refused. Messages go to device
 * access before the PUBACK; an `online:false` at QoS 1 is written first (docs/devices.md "What a PUBACK promises").
 */
export async function startEmbedded(port: number, host: string, hooks: EmbeddedHooks): Promise<Intake> {
  const warn = limitedWarn(hooks.log);
  const identities = new WeakMap<Client, Identity>();
  const broker = await Aedes.createBroker({ heartbeatInterval: 60_000, drainTimeout: 10_000 });
  broker.authenticate = (client, username, password, done) => {
    if (username === undefined && password === undefined) {
      if (hooks.anonymous) return done(null, true);
      warn('anonymous', {}, 'device access: MQTT connection without credentials refused');
      return done(authError(5, 'credentials required'), false);
    }
    const [tenantId, code, ...rest] = (username ?? '').split('/');
    const refuse = () => {
      warn(`bad:${username}`, { username: (username ?? '').slice(0, 64) }, 'device access: MQTT credentials refused');
      done(authError(4, 'bad username or password'), false);
    };
    if (rest.length || !code || !password) return refuse();
    hooks.authenticate(tenantId, code, password.toString('utf8')).then(
      (ok) => {
        if (!ok) return refuse();
        identities.set(client, { tenantId, code });
        done(null, true);
      },
      () => refuse(),
    );
  };
  broker.authorizeSubscribe = (_client, _sub, done) => done(null, null);
  broker.authorizePublish = (client, packet, done) => {
    if (!client || packet.topic.startsWith('$')) return done(new Error('reserved topic'));
    const me = identities.get(client);
    if (me && packet.topic !== statusTopic(me.tenantId, me.code)) {
      warn(
        `topic:${me.tenantId}/${me.code}`,
        { device: `${me.tenantId}/${me.code}`, topic: packet.topic.slice(0, 200) },
        'device access: a device published to another topic than its own; connection closed',
      );
      return done(new Error('not the status topic of the connected device'));
    }
    packet.retain = false;
    const written = hooks.receive(packet.topic, packet.payload as Buffer, packet.qos > 0);
    if (written) void written.then(() => done(null));
    else done(null);
  };
  const server = net.createServer((socket) => {
    const client = broker.handle(socket);
    const limited = limitPacketSize(client, MAX_PACKET_BYTES, (length) =>
      warn(
        `size:${socket.remoteAddress}`,
        { announced: length, bytesRead: socket.bytesRead, client: client.id ?? null, remote: socket.remoteAddress },
        'device access: MQTT packet too large; connection closed',
      ),
    );
    if (!limited) {
      // Fail closed: no connection without the size limit.
      warn(
        'parser',
        {},
        'device access: the MQTT parser cannot be limited (aedes or mqtt-packet changed); connection refused',
      );
      socket.destroy();
    }
  });
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
    connected: () => server.listening,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => broker.close(() => r()));
      await closed;
    },
  };
}

/** What the external intake asks of device access (ingest.ts `receive`). */
export type ExternalHooks = {
  /** A message; answers a promise when Atrium's PUBACK to the broker must wait for its write (`ack`: QoS 1 or 2). */
  receive(topic: string, payload: Buffer, ack: boolean): Promise<void> | undefined;
  /** The shared subscription group (`$share/<group>/…`), or null: this server receives every message. */
  shareGroup: string | null;
  log: FastifyBaseLogger;
};

/** The topic filter a server subscribes to: every status topic, shared in `group` when one is given. */
export function subscriptionTopic(group: string | null): string {
  const topic = `${TOPIC_PREFIX}/+/+/status`;
  return group ? `$share/${group}/${topic}` : topic;
}

/**
 * An external broker (ATRIUM_MQTT_URL, e.g. the machine's Mosquitto): the server subscribes to every status topic
 * through a shared subscription (docs/cluster.md "Device messages once"), so the broker hands each message to one
 * server of the group; it reconnects on its own. MQTT 3.1.1, clean session: a server that disconnects (stops, or is
 * killed and its socket closed) leaves the group at once and the broker gives its share to the others. Atrium's
 * PUBACK to the broker is sent once device access has the message (an `online:false` once it is written), so a
 * message acknowledged to the broker is Atrium's; a graceful close unsubscribes first, waits for the messages in hand,
 * then disconnects.
 */
export function startExternal(url: string, hooks: ExternalHooks): Intake {
  const { log } = hooks;
  const client = mqtt.connect(url, {
    clientId: `atrium-${os.hostname().slice(0, 20)}-${process.pid}-${randomBytes(3).toString('hex')}`,
    clean: true,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
    // A server that vanishes without closing its socket is dropped by the broker after 1.5 × this.
    keepalive: 10,
  });
  const topic = subscriptionTopic(hooks.shareGroup);
  const inHand = new Set<Promise<void>>();
  // mqtt.js sends the PUBACK of a QoS 1 message when this calls back (and reads the next packet then).
  client.handleMessage = (packet, callback) => {
    if (packet.cmd !== 'publish') return callback();
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    const written = hooks.receive(packet.topic, payload, packet.qos > 0);
    if (!written) return callback();
    inHand.add(written);
    void written.then(() => {
      inHand.delete(written);
      callback();
    });
  };
  let warnedAt = 0;
  /** Subscribed on the current connection (a reconnect subscribes again: clean sessions). */
  let live = false;
  let subscribed!: () => void;
  const ready = new Promise<void>((r) => (subscribed = r));
  client.on('close', () => (live = false));
  client.on('connect', () => {
    client.subscribe(topic, { qos: 1 }, (err) => {
      if (err) log.error({ err, url: redact(url) }, 'device access: subscribing at the MQTT broker failed');
      else {
        log.info({ url: redact(url), topic }, 'device access: subscribed at the MQTT broker');
        live = client.connected;
        subscribed();
      }
    });
  });
  client.on('error', (err) => {
    const now = Date.now();
    if (now - warnedAt < 60_000) return;
    warnedAt = now;
    log.error({ err: err.message, url: redact(url) }, 'device access: MQTT broker connection failed; retrying');
  });
  return {
    kind: 'external',
    ready,
    connected: () => live && client.connected,
    async close() {
      // No new messages for this server (the broker hands them to the others of the group), then the ones in hand.
      if (client.connected) await client.unsubscribeAsync(topic).catch(() => undefined);
      await Promise.all(inHand);
      await client.endAsync();
    },
    cut() {
      client.options.reconnectPeriod = 0;
      client.stream.destroy();
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
