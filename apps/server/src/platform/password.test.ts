import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, md5Hex, randomPassword, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('stores a salted scrypt hash of the wire MD5 and verifies it', async () => {
    const wire = md5Hex('Correct#Horse1');
    const a = await hashPassword(wire);
    const b = await hashPassword(wire);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(wire);
    expect((await verifyPassword(wire, a)).ok).toBe(true);
    expect((await verifyPassword(md5Hex('wrong'), a)).ok).toBe(false);
  });

  it('accepts a legacy sha1(md5) hash once and asks for a re-hash', async () => {
    const wire = md5Hex('legacy');
    const legacy = createHash('sha1').update(wire).digest('hex');
    expect(await verifyPassword(wire, legacy)).toEqual({ ok: true, needsRehash: true });
    expect((await verifyPassword(md5Hex('other'), legacy)).ok).toBe(false);
  });

  it('makes random passwords of the asked length', () => {
    const p = randomPassword(12);
    expect(p).toHaveLength(12);
    expect(p).not.toBe(randomPassword(12));
  });
});
