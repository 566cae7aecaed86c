// Issue 25 §2 (docs/server.md "Module boundaries"): a module's registration writes no data — the device defaults of
// tenants made before the devices existed are written by the start-up's migrate-and-seed — and a test reads a captcha
// through the test-only wrapper of the app's captcha store, not through a hook of the production app.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.ts';
import { tenant } from '../src/db/schema/index.ts';
import { configTemplate, deviceDict } from '../src/modules/device/table.ts';
import { withTenant } from '../src/platform/tenant-db.ts';
import { migrateAndSeed } from '../src/seed/seed.ts';
import { createTestApp, login, newCaptcha, secondInstance, type TestApp } from './harness.ts';

const OLD = '770001';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const countIn = (table: typeof deviceDict | typeof configTemplate) =>
  withTenant(t.services.db, OLD, async (tx) => {
    const [{ n }] = await tx.select({ n: count() }).from(table).where(eq(table.tenantId, OLD));
    return n;
  });

describe('module boundaries', () => {
  it('a tenant made before the devices gets their defaults from migrate-and-seed, not from an app starting', async () => {
    const now = new Date();
    await t.services.db.insert(tenant).values({
      id: newId(),
      tenantId: OLD,
      tenantName: 'Before the devices',
      linkman: 'x',
      accountNumber: -1,
      createTime: now,
      updateTime: now,
    });
    // An app built and started on this database registers the device module: it writes nothing.
    const other = await secondInstance(t);
    await other.app.close();
    expect(await countIn(deviceDict)).toBe(0);
    expect(await countIn(configTemplate)).toBe(0);

    // The start-up's migrate-and-seed (not seeding: the database has its seed) writes them, once.
    expect(await migrateAndSeed(t.database, {})).toBe(false);
    const dict = await countIn(deviceDict);
    expect(dict).toBeGreaterThan(0);
    expect(await countIn(configTemplate)).toBeGreaterThan(0);
    await migrateAndSeed(t.database, {});
    expect(await countIn(deviceDict)).toBe(dict);
  });

  it('a captcha drawn through the route is read by the test wrapper and signs in', async () => {
    const { key, code } = await newCaptcha(t);
    expect(code).toMatch(/^\w{4}$/);
    const res = await login(t, { captcha: { key, code } });
    expect(res.statusCode).toBe(200);
  });
});
