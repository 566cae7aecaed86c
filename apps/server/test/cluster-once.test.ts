// Background work runs once per cluster (docs/cluster.md "What runs once"): two servers on one database each run the
// offline sweep and the daily rollup many times at once, and every device goes offline with exactly one event, every
// rollup row is written once, nothing is left undone. A tenant whose job another server holds is skipped, then done
// once that server lets go. Real database (PGlite, or PostgreSQL with DATABASE_URL: two pools, real concurrency).
import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { newId } from '../src/db/ids.ts';
import { tenant } from '../src/db/schema/index.ts';
import { cameraDevice } from '../src/modules/device/table.ts';
import { deviceAccessOf } from '../src/modules/device-access/module.ts';
import { deviceStatusEvent } from '../src/modules/device-access/table.ts';
import { rollupTenants } from '../src/modules/statistics/rollup.ts';
import { dayIn } from '../src/modules/statistics/service.ts';
import { statDeviceDaily } from '../src/modules/statistics/table.ts';
import { jobLockKey, oncePerCluster } from '../src/platform/singleton.ts';
import { seal } from '../src/platform/secrets.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { createTestApp, secondInstance, type TestApp } from './harness.ts';

const run = String(randomInt(1_000_000, 9_999_999));
const T = `5${run}`;
const DEVICES = 300;
const ROUNDS = 6;

let a: TestApp;
let b: TestApp;

async function addOnlineDevices(app: TestApp, tenantId: string, n: number, lastSeen: Date) {
  const rows = Array.from({ length: n }, (_, i) => {
    const code = `110101000013200${String(i).padStart(5, '0')}`;
    return {
      id: newId(),
      tenantId,
      deviceCode: code,
      name: `cam ${code}`,
      deviceType: '132',
      regionCode: i % 2 ? '11010100' : '11010200',
      secretSealed: seal(app.services, `s-${i}`),
      status: 1,
      lastSeen,
    };
  });
  await withTenant(app.services.db, tenantId, (tx) => tx.insert(cameraDevice).values(rows));
}

const count = (app: TestApp, q: ReturnType<typeof sql>) =>
  withTenant(app.services.db, T, async (tx) => {
    const res = (await tx.execute(q)) as unknown as { rows: { n: number }[] };
    return Number(res.rows[0].n);
  });

beforeAll(async () => {
  a = await createTestApp({ serverName: 's1' });
  b = await secondInstance(a);
  await a.services.db.insert(tenant).values({ id: newId(), tenantId: T, tenantName: `t${T}` });
  // Online devices silent for an hour: every one is due for the sweep.
  await addOnlineDevices(a, T, DEVICES, new Date(Date.now() - 3600_000));
});

afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('which server answered', () => {
  it('ATRIUM_SERVER_NAME is answered as X-Atrium-Server, with the request id nginx sent', async () => {
    const res = await a.app.inject({
      method: 'GET',
      url: '/api/nothing-here',
      headers: { 'x-request-id': 'nginx-req-0001' },
    });
    expect(res.headers['x-atrium-server']).toBe('s1');
    expect(res.headers['x-request-id']).toBe('nginx-req-0001');
    expect(loadConfig({ ATRIUM_SERVER_NAME: 's2' }).serverName).toBe('s2');
    expect(loadConfig({}).serverName).toBeUndefined();
    expect(() => loadConfig({ ATRIUM_SERVER_NAME: 'a b' })).toThrow(/ATRIUM_SERVER_NAME/);
  });
});

describe('background work runs once per cluster', () => {
  it(`the offline sweep: two servers × ${ROUNDS} rounds at once take each of ${DEVICES} devices offline once`, async () => {
    const sweeps = [a, b].flatMap((app) =>
      Array.from({ length: ROUNDS }, () => deviceAccessOf(app.services)!.access.sweep()),
    );
    const swept = await Promise.all(sweeps);
    // The answers add up to the devices: none counted twice, none left.
    expect(swept.reduce((x, y) => x + y, 0)).toBe(DEVICES);
    expect(
      await count(a, sql`select count(*)::int as n from camera_device where tenant_id = ${T} and status = 1`),
    ).toBe(0);
    // One event per device, from online to offline.
    const events = await withTenant(a.services.db, T, (tx) =>
      tx
        .select({ deviceId: deviceStatusEvent.deviceId, to: deviceStatusEvent.toStatus })
        .from(deviceStatusEvent)
        .where(eq(deviceStatusEvent.tenantId, T)),
    );
    expect(events).toHaveLength(DEVICES);
    expect(new Set(events.map((e) => e.deviceId)).size).toBe(DEVICES);
    expect(events.every((e) => e.to === 0)).toBe(true);
    // The counters the statistics read agree: nobody online.
    expect(
      await count(a, sql`select coalesce(sum(online), 0)::int as n from stat_device_counter where tenant_id = ${T}`),
    ).toBe(0);
  });

  it(`the daily rollup: two servers × ${ROUNDS} runs at once write each row once`, async () => {
    const today = dayIn(a.config.timeZone, a.services.now());
    const runs = [a, b].flatMap((app) => Array.from({ length: ROUNDS }, () => rollupTenants(app.services, today)));
    const results = await Promise.all(runs);
    const written = results.reduce((x, r) => x + r.written, 0);
    const rows = await withTenant(a.services.db, T, (tx) =>
      tx.select().from(statDeviceDaily).where(eq(statDeviceDaily.tenantId, T)),
    );
    // Yesterday for the whole tenant, its province, city and two districts (one device type): 5 rows.
    expect(rows).toHaveLength(5);
    const whole = rows.find((r) => r.district === '');
    expect(whole).toMatchObject({ total: DEVICES, online: 0 });
    // Every run wrote or skipped (another server held the tenant), and the rows of this tenant were written once:
    // the written counts, over all tenants, hold this tenant's five at most once.
    expect(written).toBeGreaterThanOrEqual(5);
    const again = await rollupTenants(b.services, today);
    expect(again).toEqual({ written: 0, skipped: 0 });
    expect(await count(a, sql`select count(*)::int as n from stat_device_daily where tenant_id = ${T}`)).toBe(5);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a job held by another server (PostgreSQL)', () => {
  it('a tenant whose sweep another session holds is skipped, then swept once it lets go', async () => {
    const ids = await withTenant(a.services.db, T, async (tx) =>
      (
        await tx
          .update(cameraDevice)
          .set({ status: 1, lastSeen: new Date(Date.now() - 3600_000) })
          .where(and(eq(cameraDevice.tenantId, T)))
          .returning({ id: cameraDevice.id })
      ).map((r) => r.id),
    );
    expect(ids).toHaveLength(DEVICES);
    // A third server (a plain connection) is in the middle of this tenant's sweep: it holds the job's lock.
    const other = new pg.Client({ connectionString: a.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select pg_advisory_xact_lock($1::bigint)', [String(jobLockKey('device-offline-sweep', T))]);
      expect(await deviceAccessOf(a.services)!.access.sweep()).toBe(0);
      expect(await deviceAccessOf(b.services)!.access.sweep()).toBe(0);
      // The rollup skips it and says so (its job looks again at the next check).
      await other.query('select pg_advisory_xact_lock($1::bigint)', [String(jobLockKey('statistics-rollup', T))]);
      const r = await rollupTenants(a.services);
      expect(r.skipped).toBe(1);
      expect(await oncePerCluster(a.services.db, 'statistics-rollup', T, async () => 'ran')).toEqual({ ran: false });
      // The holder dies (its connection ends): its transaction-level locks go with it.
      await other.end();
      const [x, y] = await Promise.all([
        deviceAccessOf(a.services)!.access.sweep(),
        deviceAccessOf(b.services)!.access.sweep(),
      ]);
      expect(x + y).toBe(DEVICES);
      expect((await rollupTenants(a.services)).skipped).toBe(0);
    } finally {
      await other.end().catch(() => undefined);
    }
  });
});
