import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed status message of a device (docs/devices.md "Device access"). Shared by the server and the simulator
 * (scripts/simulate.ts): one definition of the canonical string, so both sign the same bytes.
 */

export type Channel = { channelNo: number; channelCode?: string | null; name?: string | null };

export type StatusMessage = {
  online: boolean;
  /** Milliseconds since the epoch, by the device's clock. */
  ts: number;
  channels?: Channel[];
  /** base64url (no padding) of HMAC-SHA256(secret, canonical string). */
  sig: string;
};

export const TOPIC_PREFIX = 'atrium';

/** `atrium/{tenantId}/{deviceCode}/status`. */
export const statusTopic = (tenantId: string, deviceCode: string) => `${TOPIC_PREFIX}/${tenantId}/${deviceCode}/status`;

/**
 * The string a device signs, lines joined by "\n" (no trailing newline):
 *
 *   topic
 *   ts              decimal integer, ms
 *   online          "1" or "0"
 *   channels        "-" when the message carries no `channels`; otherwise the JSON array of
 *                   [channelNo, channelCode, name] triples, compact, with "" for an absent code or name
 */
export function canonical(topic: string, ts: number, online: boolean, channels: Channel[] | undefined): string {
  const list =
    channels === undefined
      ? '-'
      : JSON.stringify(channels.map((c) => [c.channelNo, c.channelCode ?? '', c.name ?? '']));
  return `${topic}\n${ts}\n${online ? 1 : 0}\n${list}`;
}

export const sign = (secret: string | Buffer, text: string) =>
  createHmac('sha256', secret).update(text, 'utf8').digest('base64url');

/** Whether `sig` is the signature of `text` under `secret` (constant-time comparison). */
export function verify(secret: string | Buffer, text: string, sig: string): boolean {
  const want = createHmac('sha256', secret).update(text, 'utf8').digest();
  const got = Buffer.from(sig, 'base64url');
  return got.length === want.length && timingSafeEqual(got, want);
}

/** A signed message, ready to publish (the simulator, tests). */
export function signedMessage(
  secret: string,
  tenantId: string,
  deviceCode: string,
  msg: { online: boolean; ts: number; channels?: Channel[] },
): { topic: string; payload: string } {
  const topic = statusTopic(tenantId, deviceCode);
  const sig = sign(secret, canonical(topic, msg.ts, msg.online, msg.channels));
  const body: StatusMessage = { online: msg.online, ts: msg.ts, sig };
  if (msg.channels) body.channels = msg.channels;
  return { topic, payload: JSON.stringify(body) };
}

// ——— credentials at CONNECT (docs/devices.md "Who may connect and publish") ————————————————————————————————————

/** The MQTT username of a device: `{tenantId}/{deviceCode}` (so a Mosquitto ACL `pattern write atrium/%u/status` fits). */
export const connectUsername = (tenantId: string, deviceCode: string) => `${tenantId}/${deviceCode}`;

/** The text a device's connect password is derived from: `connect:{tenantId}/{deviceCode}`. */
export const connectText = (tenantId: string, deviceCode: string) => `connect:${tenantId}/${deviceCode}`;

/** The MQTT password of a device: base64url (no padding) of HMAC-SHA256(secret, `connect:{tenantId}/{deviceCode}`). */
export const connectPassword = (secret: string, tenantId: string, deviceCode: string) =>
  sign(secret, connectText(tenantId, deviceCode));

/** Whether `password` is the connect password of the device (exact text, constant-time comparison). */
export function verifyConnectPassword(secret: string, tenantId: string, deviceCode: string, password: string): boolean {
  const want = Buffer.from(connectPassword(secret, tenantId, deviceCode), 'utf8');
  const got = Buffer.from(password, 'utf8');
  return got.length === want.length && timingSafeEqual(got, want);
}
