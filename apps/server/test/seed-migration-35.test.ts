// Migration 0035: a database seeded before issue 24 gets the framing parameter, the 'approval' config type and the
// camera networks screen with its buttons — the region admin reading it, the city admin changing it — and a second
// run changes nothing.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { dict, menu, param, role, roleMenu } from '../src/db/schema/index.ts';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const CODES = [
  'cameranetwork',
  'cameranetwork_add',
  'cameranetwork_edit',
  'cameranetwork_delete',
  'cameranetwork_view',
];

async function run() {
  const file = new URL('../src/db/migrations/0035_seeds_for_existing_databases.sql', import.meta.url);
  for (const statement of fs.readFileSync(file, 'utf8').split('--> statement-breakpoint'))
    await t.services.db.execute(sql.raw(statement));
}

/** The camera network codes each product role of the platform tenant holds. */
async function held(alias: string): Promise<string[]> {
  const rows = await t.services.db
    .select({ code: menu.code })
    .from(roleMenu)
    .innerJoin(role, eq(role.id, roleMenu.roleId))
    .innerJoin(menu, eq(menu.id, roleMenu.menuId))
    .where(and(eq(role.roleAlias, alias), eq(role.tenantId, '000000'), inArray(menu.code, CODES)));
  return rows.map((r) => r.code).sort();
}

describe('migration 0035 on a database seeded before issue 24', () => {
  it('adds what the seed now has, with the same grants, once', async () => {
    const db = t.services.db;
    const before = { city: await held('city_admin'), region: await held('region_admin') };
    expect(before.city).toEqual([...CODES].sort());
    expect(before.region).toEqual(['cameranetwork', 'cameranetwork_view']);
    // As a database seeded before them.
    const ids = (await db.select({ id: menu.id }).from(menu).where(inArray(menu.code, CODES))).map((m) => m.id);
    await db.delete(roleMenu).where(inArray(roleMenu.menuId, ids));
    await db.delete(menu).where(inArray(menu.id, ids));
    await db.delete(param).where(eq(param.paramKey, 'frame.allowedOrigins'));
    await db.delete(dict).where(and(eq(dict.code, 'sys_config_type'), eq(dict.dictKey, 'approval')));

    await run();
    await run();
    const [p] = await db.select().from(param).where(eq(param.paramKey, 'frame.allowedOrigins'));
    expect(p.paramValue).toBe('self');
    const types = await db
      .select()
      .from(dict)
      .where(and(eq(dict.code, 'sys_config_type'), eq(dict.dictKey, 'approval')));
    expect(types).toHaveLength(1);
    expect(types[0]).toMatchObject({ dictValue: '审批', dictValueEn: 'Approval' });
    const screens = await db
      .select()
      .from(menu)
      .where(and(eq(menu.code, 'cameranetwork'), eq(menu.tenantId, '000000')));
    expect(screens).toHaveLength(1);
    expect(screens[0]).toMatchObject({ path: '/device/cameranetwork', category: 1 });
    expect({ city: await held('city_admin'), region: await held('region_admin') }).toEqual(before);
  });
});
