import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (pw: string | Buffer, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const N = 32768,
  R = 8,
  P = 1,
  LEN = 32;
const opts = { N, r: R, p: P, maxmem: 128 * N * R * 2 };

export const md5Hex = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
export const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Stores a slow salted hash of the wire value (the MD5 hex the client sends). */
export async function hashPassword(wireMd5: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(wireMd5.toLowerCase(), salt, LEN, opts);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export type Verify = { ok: boolean; needsRehash: boolean };

export async function verifyPassword(wireMd5: string, stored: string): Promise<Verify> {
  const value = wireMd5.toLowerCase();
  if (stored.startsWith('scrypt$')) {
    const [, n, r, p, salt, key] = stored.split('$');
    const expected = Buffer.from(key, 'base64');
    const got = await scrypt(value, Buffer.from(salt, 'base64'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: 128 * Number(n) * Number(r) * 2,
    });
    return { ok: got.length === expected.length && timingSafeEqual(got, expected), needsRehash: Number(n) !== N };
  }
  // Legacy databases of this family store sha1(md5(password)); accept once, then re-hash.
  if (/^[0-9a-f]{40}$/i.test(stored)) {
    const got = createHash('sha1').update(value).digest('hex');
    return { ok: timingSafeEqual(Buffer.from(got), Buffer.from(stored.toLowerCase())), needsRehash: true };
  }
  return { ok: false, needsRehash: false };
}

/** Burns the same time as a real check so an unknown account answers as slowly as a wrong password. */
let dummy: string | undefined;
export async function burnPasswordCheck(wireMd5: string): Promise<void> {
  dummy ??= await hashPassword(md5Hex(randomBytes(8).toString('hex')));
  await verifyPassword(wireMd5, dummy);
}

/** A random password a person can type: 12 characters from an unambiguous alphabet. */
export function randomPassword(length = 12): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
