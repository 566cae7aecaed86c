import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import { promisify } from 'node:util';
import { messages } from '@atrium/contract';
import { AppError } from './errors.ts';

const scryptRaw = promisify(scryptCb) as (
  pw: string | Buffer,
  salt: Buffer,
  len: number,
  opts: object,
) => Promise<Buffer>;

/**
 * scrypt runs on libuv's thread pool (UV_THREADPOOL_SIZE, 4 threads by default), which also signs and checks every
 * access token (WebCrypto HMAC), reads files and resolves names: hashes queued on all its threads would stall every
 * request behind them. So at most SLOTS hashes run at once — one thread fewer than the pool has and one core fewer
 * than the machine — and the others wait in line (holding no database connection, docs/server.md "Under load").
 * When the line holds more than MAX_WAIT_MS of work, a new one is refused at once with 503 rather than left to time
 * out.
 */
const SLOTS = Math.max(
  1,
  Math.min((Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1, (os.availableParallelism?.() ?? os.cpus().length) - 1),
);
const MAX_WAIT_MS = 3000;
let running = 0;
const line: (() => void)[] = [];
/** Moving average of one hash's duration (ms), to turn the line's length into a wait; quick to follow a busy machine. */
let hashMs = 150;

/** The hashes running and waiting in line now (process-wide, like the thread pool; docs/deploy.md "Metrics"). */
export function hashLine(): { running: number; waiting: number } {
  return { running, waiting: line.length };
}

async function scrypt(pw: string | Buffer, salt: Buffer, len: number, opts: object): Promise<Buffer> {
  if (running < SLOTS) running++;
  else {
    if (((line.length + 1) * hashMs) / SLOTS > MAX_WAIT_MS) throw new AppError(503, messages.busy);
    await new Promise<void>((resolve) => line.push(resolve));
  }
  const t0 = performance.now();
  try {
    return await scryptRaw(pw, salt, len, opts);
  } finally {
    hashMs = hashMs * 0.7 + (performance.now() - t0) * 0.3;
    // The slot passes straight to the next in line, if any.
    const next = line.shift();
    if (next) next();
    else running--;
  }
}

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
