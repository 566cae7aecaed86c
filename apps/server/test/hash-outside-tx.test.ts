// Issue 9 §2: a password is hashed (scrypt, a tenth of a second of CPU) before any transaction is opened, so no
// database connection waits on it. Every hash is made slow here, and while it runs a probe asks the database whether
// a transaction is open: on PostgreSQL through pg_stat_activity, on PGlite (one connection, transactions exclusive)
// by whether a plain query still gets through.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { client, createTestApp, loginToken, type TestApp } from './harness.ts';
import { user } from '../src/db/schema/index.ts';
import { md5Hex } from '../src/platform/password.ts';
import { rowsOf } from '../src/db/rows.ts';

const probe = vi.hoisted(() => ({
  /** Delay of every hash while a test watches (ms); 0: hashes as usual. */
  delayMs: 0,
  check: null as null | (() => Promise<string>),
  seen: [] as string[],
}));

vi.mock('../src/platform/password.ts', async () => {
  const actual = await vi.importActual<typeof import('../src/platform/password.ts')>('../src/platform/password.ts');
  return {
    ...actual,
    async hashPassword(wire: string) {
      if (probe.delayMs && probe.check) {
        probe.seen.push(await probe.check());
        await new Promise((r) => setTimeout(r, probe.delayMs));
      }
      return actual.hashPassword(wire);
    },
  };
});

let t: TestApp;
let platform: string;
const onPostgres = !!process.env.DATABASE_URL;

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
  probe.check = async () => {
    if (onPostgres) {
      const rows = await rowsOf<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`,
      );
      return rows[0].n > 0 ? 'transaction open' : 'free';
    }
    // PGlite runs one transaction at a time: a query outside it waits until it ends.
    const through = t.database.db.execute(sql`select 1`).then(() => 'free');
    const timeout = new Promise<string>((r) => setTimeout(() => r('transaction open'), 400));
    return Promise.race([through, timeout]);
  };
});
afterAll(async () => {
  probe.delayMs = 0;
  await t?.close();
});

/** Runs `fn` with every hash slowed down and probed; answers what each probe saw. */
async function watched(fn: () => Promise<void>): Promise<string[]> {
  probe.seen = [];
  probe.delayMs = 300;
  try {
    await fn();
  } finally {
    probe.delayMs = 0;
  }
  return probe.seen;
}

describe('password hashing holds no database connection', () => {
  it('creating a user', async () => {
    const seen = await watched(async () => {
      const res = await client(t, platform).post('/api/blade-user/submit', {
        account: 'hash_create',
        realName: 'H',
        password: 'Hashing#2026x',
      });
      expect(res.statusCode).toBe(200);
    });
    expect(seen).toEqual(['free']);
    const token = await loginToken(t, { username: 'hash_create', password: 'Hashing#2026x' });
    expect(token.access).toBeTruthy();
  });

  it('resetting passwords (one hash per user)', async () => {
    const ids: string[] = [];
    for (const account of ['hash_reset1', 'hash_reset2']) {
      const res = await client(t, platform).post('/api/blade-user/submit', {
        account,
        realName: 'R',
        password: 'Hashing#2026x',
      });
      ids.push(res.json().data.id);
    }
    let answer: { userId: string; account: string; password: string }[] = [];
    const seen = await watched(async () => {
      const res = await client(t, platform).post(`/api/blade-user/reset-password?userIds=${ids.join(',')}`);
      expect(res.statusCode).toBe(200);
      answer = res.json().data;
    });
    expect(seen).toEqual(['free', 'free']);
    expect(answer.map((a) => a.userId).sort()).toEqual([...ids].sort());
    for (const a of answer) {
      const { body } = await loginToken(t, { username: a.account, password: a.password });
      expect(body.must_change_password).toBe(true);
    }
  });

  it('provisioning a tenant (its admin password)', async () => {
    let made: { tenantId: string; adminPassword: string } | undefined;
    const seen = await watched(async () => {
      const res = await client(t, platform).post('/api/blade-system/tenant/submit', { tenantName: 'Hashing Ltd' });
      expect(res.statusCode).toBe(200);
      made = res.json().data;
    });
    expect(seen).toEqual(['free']);
    const { body } = await loginToken(t, { tenantId: made!.tenantId, password: made!.adminPassword });
    expect(body.must_change_password).toBe(true);
  });

  it('a guest registering and a user changing their password', async () => {
    const seen = await watched(async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/blade-user/register-guest',
        payload: { tenantId: '000000', account: 'hash_guest', password: 'Hashing#2026x' },
      });
      expect(res.statusCode).toBe(200);
    });
    expect(seen).toEqual(['free']);
    const [g] = await t.database.db.select().from(user).where(eq(user.account, 'hash_guest'));
    expect(g.status).toBe(2);

    await client(t, platform).post('/api/blade-user/submit', {
      account: 'hash_self',
      realName: 'S',
      password: 'Hashing#2026x',
    });
    const { access } = await loginToken(t, { username: 'hash_self', password: 'Hashing#2026x' });
    const changed = await watched(async () => {
      const res = await client(t, access).post('/api/blade-user/update-password', {
        oldPassword: md5Hex('Hashing#2026x'),
        newPassword: 'Changed#2026xy',
        newPassword1: 'Changed#2026xy',
      });
      expect(res.statusCode).toBe(200);
    });
    expect(changed).toEqual(['free']);
  });

  it('an unrelated read is answered while a user is being created', async () => {
    probe.seen = [];
    probe.delayMs = 1500;
    try {
      const creating = client(t, platform).post('/api/blade-user/submit', {
        account: 'hash_slow',
        realName: 'S',
        password: 'Hashing#2026x',
      });
      await new Promise((r) => setTimeout(r, 200));
      const t0 = performance.now();
      const read = await t.app.inject({ method: 'GET', url: '/api/blade-system/tenant/info?domain=nowhere.invalid' });
      const readMs = performance.now() - t0;
      expect(read.statusCode).toBe(200);
      expect((await creating).statusCode).toBe(200);
      // The read did not wait for the hash (1.5 s).
      expect(readMs).toBeLessThan(700);
    } finally {
      probe.delayMs = 0;
    }
  });
});
