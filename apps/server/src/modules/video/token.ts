import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of an HLS address (docs/devices.md "Live video"): a `<video>` cannot send the Blade-Auth header, so the
 * playlist and segment addresses carry `?token=`, an HMAC-SHA256 over the stream, tenant, user and expiry under a
 * key derived from the server's signing key. It opens that one stream for that user until it expires.
 */
export type HlsClaims = { streamId: string; tenantId: string; userId: string; exp: number };

export function signHls(key: Buffer, c: HlsClaims): string {
  const body = Buffer.from(JSON.stringify([c.streamId, c.tenantId, c.userId, c.exp])).toString('base64url');
  const mac = createHmac('sha256', key).update(body).digest('base64url');
  return `${body}.${mac}`;
}

/** The claims of a well-signed token (expired or not), or null. */
export function readHls(key: Buffer, token: string): HlsClaims | null {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) return null;
  const want = createHmac('sha256', key).update(body).digest();
  let got: Buffer;
  try {
    got = Buffer.from(mac, 'base64url');
  } catch {
    return null;
  }
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  try {
    const [streamId, tenantId, userId, exp] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
    if (typeof streamId !== 'string' || typeof tenantId !== 'string' || typeof userId !== 'string') return null;
    if (typeof exp !== 'number') return null;
    return { streamId, tenantId, userId, exp };
  } catch {
    return null;
  }
}
