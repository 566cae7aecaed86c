// The live state answered from memory (docs/server.md "Live state and cache epochs", platform/live-memory.ts): a
// session's requests after its first cost no live-state query, and every committed write that changes the live state
// counts at the very next request on the server that made it — a rolled-back one does not. On PostgreSQL (with
// DATABASE_URL) also: another server sees it within 1 s, and a server whose LISTEN connection was terminated or went
// silent does not trust its memory until it is listening again and has refilled it.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { client, createTestApp, loginToken, secondInstance, type TestApp } from './harness.ts';
import { grantingTenant } from './tenant-fixture.ts';
import { tenant as tenantTable, user } from '../src/db/schema/index.ts';
import { HEARTBEAT_MS, liveListenerPid } from '../src/platform/live-memory.ts';

let a: TestApp;
let platform: string;
const PASSWORD = 'Memory#2026xyz';
const ROUTES = '/api/blade-system/menu/routes';

beforeAll(async () => {
  a = await createTestApp();
  platform = (await loginToken(a)).access;
});
afterAll(async () => {
  await a?.close();
});

const tenant = (tenantId: string) => grantingTenant(a, platform, tenantId, PASSWORD);
const status = async (t: TestApp, token: string, url = ROUTES) => (await client(t, token).get(url)).statusCode;
const counts = (t: TestApp) => ({ ...t.services.liveMemory.counts });

/** The token's next request on `t` is answered from memory, without a live-state query. */
async function fromMemory(t: TestApp, token: string, url = ROUTES) {
  const before = counts(t);
  expect(await status(t, token, url)).toBe(200);
  const after = counts(t);
  expect({ answered: after.answered - before.answered, queried: after.queried - before.queried }).toEqual({
    answered: 1,
    queried: 0,
  });
}

describe('the server that made the change: its next request', () => {
  it('a session is answered from memory after its first request', async () => {
    expect(a.services.liveMemory.isTrusted).toBe(true);
    const { access } = await loginToken(a);
    expect(await status(a, access)).toBe(200);
    await fromMemory(a, access);
    await fromMemory(a, access, '/api/blade-system/post/list');
  });

  it('logout', async () => {
    const { access } = await loginToken(a);
    expect(await status(a, access)).toBe(200);
    await fromMemory(a, access);
    expect(await status(a, access, '/api/blade-auth/oauth/logout')).toBe(200);
    expect(await status(a, access)).toBe(401);
  });

  it('a disabled user, a removed user, and roles taken away', async () => {
    const t = await tenant('640001');
    const posts = await t.role('posts', { menus: ['system', 'post'] });
    const depts = await t.role('depts', { menus: ['system', 'dept'] });
    const off = await t.member('mem-off', [posts]);
    const gone = await t.member('mem-gone', [posts]);
    const moved = await t.member('mem-moved', [posts, depts]);
    for (const m of [off, gone, moved]) {
      expect(await status(a, m.token, '/api/blade-system/post/list')).toBe(200);
      await fromMemory(a, m.token, '/api/blade-system/post/list');
    }
    // No API disables a user: the row is changed as an operator would, on this server's database.
    await a.services.db.update(user).set({ status: 0 }).where(eq(user.id, off.id));
    expect(await status(a, off.token, '/api/blade-system/post/list')).toBe(401);
    await t.ok(await t.api.post(`/api/blade-user/remove?ids=${gone.id}`));
    expect(await status(a, gone.token)).toBe(401);
    await t.ok(await t.api.post('/api/blade-user/grant', { userIds: [moved.id], roleIds: [depts] }));
    expect(await status(a, moved.token, '/api/blade-system/post/list')).toBe(403);
    expect(await status(a, moved.token, '/api/blade-system/dept/list')).toBe(200);
  });

  it('a disabled tenant, a removed tenant and an expired tenant', async () => {
    const disabled = await tenant('640002');
    const removed = await tenant('640003');
    const expired = await tenant('640004');
    for (const t of [disabled, removed, expired]) {
      expect(await status(a, t.admin.token)).toBe(200);
      await fromMemory(a, t.admin.token);
    }
    await a.services.db.update(tenantTable).set({ status: 0 }).where(eq(tenantTable.tenantId, '640002'));
    expect(await status(a, disabled.admin.token)).toBe(401);
    const p = client(a, platform);
    expect((await p.post(`/api/blade-system/tenant/remove?ids=${removed.admin.tenantRowId}`)).statusCode).toBe(200);
    expect(await status(a, removed.admin.token)).toBe(401);
    const set = await p.post(`/api/blade-system/tenant/setting?ids=${expired.admin.tenantRowId}`, {
      accountNumber: -1,
      expireTime: '2000-01-01 00:00:00',
    });
    expect(set.statusCode, set.body).toBe(200);
    const res = await client(a, expired.admin.token, 'en').get(ROUTES);
    expect(res.statusCode).toBe(401);
    expect((res.json() as { msg: string }).msg).toBe('The tenant has expired');
  });

  it('a tenant that expires while its sessions are held: the clock counts, no write needed', async () => {
    const t = await tenant('640005');
    const soon = new Date(a.services.now().getTime() + 60_000);
    await a.services.db.update(tenantTable).set({ expireTime: soon }).where(eq(tenantTable.tenantId, '640005'));
    expect(await status(a, t.admin.token)).toBe(200);
    await fromMemory(a, t.admin.token);
    a.clock.offsetMs += 120_000;
    try {
      const res = await client(a, t.admin.token, 'en').get(ROUTES);
      expect(res.statusCode).toBe(401);
      expect((res.json() as { msg: string }).msg).toBe('The tenant has expired');
    } finally {
      a.clock.offsetMs -= 120_000;
    }
  });

  it('a rolled-back write changes nothing; the same write committed counts', async () => {
    const t = await tenant('640006');
    const r = await t.role('posts', { menus: ['system', 'post'] });
    const m = await t.member('mem-undo', [r]);
    expect(await status(a, m.token)).toBe(200);
    await fromMemory(a, m.token);
    const disable = (fail: boolean) =>
      a.services.db.transaction(async (tx) => {
        await tx.update(user).set({ status: 0 }).where(eq(user.id, m.id));
        if (fail) throw new Error('rolled back on purpose');
      });
    await expect(disable(true)).rejects.toThrow('rolled back on purpose');
    await fromMemory(a, m.token);
    await disable(false);
    expect(await status(a, m.token)).toBe(401);
  });
});

/**
 * A TCP proxy to PostgreSQL for the second server, which tells its LISTEN connections (`application_name`
 * `atrium-live` in the start-up message) from its pool's: it can refuse new LISTEN connections (holding the gap open
 * while a change is made) and silence the current ones — nothing forwarded either way, nothing closed, as a vanished
 * host would look.
 */
async function listenProxy(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  const silencers = new Set<() => void>();
  let refuse = false;
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(target.port || 5432), target.hostname);
    let first = true;
    let silent = false;
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.on('data', (chunk: Buffer) => {
      if (first) {
        first = false;
        if (chunk.includes('atrium-live')) {
          if (refuse) return inbound.destroy();
          silencers.add(() => (silent = true));
        }
      }
      if (!silent) outbound.write(chunk);
    });
    outbound.on('data', (chunk: Buffer) => {
      if (!silent) inbound.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    /** New LISTEN connections are refused (closed at once) while true. */
    refuseListeners(on: boolean) {
      refuse = on;
    },
    /** The LISTEN connections made so far stop passing anything, without closing. */
    silenceListeners() {
      for (const f of silencers) f();
      silencers.clear();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL: another server, and a LISTEN connection lost', () => {
  let b: TestApp;
  let proxy: Awaited<ReturnType<typeof listenProxy>>;
  beforeAll(async () => {
    proxy = await listenProxy(a.databaseUrl!);
    b = await secondInstance(a, proxy.url);
  });
  afterAll(async () => {
    await b?.close();
    await proxy?.close();
  });

  it('a logout and a role change made on one server count on the other within 1 s', async () => {
    const t = await tenant('640101');
    const posts = await t.role('posts', { menus: ['system', 'post'] });
    const depts = await t.role('depts', { menus: ['system', 'dept'] });
    const m = await t.member('mem-b-1', [posts, depts]);
    const { access } = await loginToken(a);
    for (const [token, url] of [
      [access, ROUTES],
      [m.token, '/api/blade-system/post/list'],
    ]) {
      expect(await status(b, token, url)).toBe(200);
      await fromMemory(b, token, url);
    }
    const until = async (token: string, url: string, want: number) => {
      const t0 = performance.now();
      await expect.poll(() => status(b, token, url), { timeout: 1000, interval: 5 }).toBe(want);
      return performance.now() - t0;
    };
    expect(await status(a, access, '/api/blade-auth/oauth/logout')).toBe(200);
    expect(await until(access, ROUTES, 401)).toBeLessThan(1000);
    await t.ok(await t.api.post('/api/blade-user/grant', { userIds: [m.id], roleIds: [depts] }));
    expect(await until(m.token, '/api/blade-system/post/list', 403)).toBeLessThan(1000);
  });

  /**
   * B's LISTEN connection is lost by `lose` while new ones are refused (so the gap stays open however fast B would
   * reconnect: it reconnects within 50 ms, often before `pg_terminate_backend` has returned). Checks that B stops
   * trusting its memory within `noticeMs`, answers nothing from memory during the gap, honours a logout made on A
   * meanwhile, and once listening again starts empty, refills by the query and hears A again.
   */
  async function loseListener(lose: (pid: number) => Promise<void>, noticeMs: number) {
    const kept = (await loginToken(a)).access;
    const revoked = (await loginToken(a)).access;
    for (const token of [kept, revoked]) {
      expect(await status(b, token)).toBe(200);
      await fromMemory(b, token);
    }
    expect(b.services.liveMemory.isTrusted).toBe(true);
    const pid = liveListenerPid(b.database.db);
    expect(pid).toBeTypeOf('number');
    proxy.refuseListeners(true);
    try {
      const t0 = performance.now();
      await lose(pid!);
      await expect.poll(() => b.services.liveMemory.isTrusted, { timeout: noticeMs, interval: 1 }).toBe(false);
      expect(performance.now() - t0).toBeLessThan(noticeMs);
      // Not listening: every request makes the query, none is answered from memory.
      const before = counts(b);
      expect(await status(b, kept)).toBe(200);
      expect(await status(b, kept)).toBe(200);
      expect({ answered: counts(b).answered - before.answered, queried: counts(b).queried - before.queried }).toEqual({
        answered: 0,
        queried: 2,
      });
      // Made while B hears nothing: B's memory must not answer for the session.
      expect(await status(a, revoked, '/api/blade-auth/oauth/logout')).toBe(200);
      expect(await status(b, revoked)).toBe(401);
      expect(b.services.liveMemory.isTrusted).toBe(false);
    } finally {
      proxy.refuseListeners(false);
    }
    // Listening again (a new connection; it retries at most every 2 s), the memory starts empty and is refilled by
    // the query.
    await expect.poll(() => b.services.liveMemory.isTrusted, { timeout: 10_000, interval: 10 }).toBe(true);
    expect(liveListenerPid(b.database.db)).not.toBe(pid);
    expect(await status(b, revoked)).toBe(401);
    const before = counts(b);
    expect(await status(b, kept)).toBe(200);
    expect(counts(b).queried - before.queried).toBe(1);
    await fromMemory(b, kept);
    // And it hears the other server again.
    expect(await status(a, kept, '/api/blade-auth/oauth/logout')).toBe(200);
    await expect.poll(() => status(b, kept), { timeout: 1000, interval: 5 }).toBe(401);
  }

  it('the LISTEN connection terminated: a revocation made meanwhile is honoured, then memory is refilled', async () => {
    // The terminated backend's FATAL reaches B's listener as an error event (within tens of milliseconds; the bound
    // leaves room for a loaded machine).
    await loseListener(async (pid) => {
      const admin = new pg.Client({ connectionString: a.databaseUrl });
      await admin.connect();
      try {
        const killed = await admin.query('select pg_terminate_backend($1, 5000) as ok', [pid]);
        expect(killed.rows[0].ok).toBe(true);
      } finally {
        await admin.end();
      }
    }, 5000);
  });

  it('the LISTEN connection gone silent (no answer, nothing closed): the heartbeat notices it within 2 s', async () => {
    // The heartbeat asks every HEARTBEAT_MS and waits HEARTBEAT_MS for the answer: 2 s at most, plus the scheduling
    // of a loaded machine.
    await loseListener(async () => proxy.silenceListeners(), 2 * HEARTBEAT_MS + 1000);
  });
});
