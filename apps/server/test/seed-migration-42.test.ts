// Migration 0042: a database seeded before the log viewers gets 审计日志 and 错误日志 below 系统管理, granted to
// every tenant's administrator role as the seed grants them (docs/server.md "Log viewers"), and a second run changes
// nothing. Only its hand-written part runs here (the index changes before it are drizzle's).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { menu, role, roleMenu } from '../src/db/schema/index.ts';
import { createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await provisionedTenant(t, (await loginToken(t)).access, '760101');
});
afterAll(async () => t?.close());

const CODES = ['auditlog', 'errorlog'];

async function run() {
  const file = new URL('../src/db/migrations/0042_audit_viewer.sql', import.meta.url);
  const handWritten = fs.readFileSync(file, 'utf8').split('-- hand-written:')[1];
  for (const statement of handWritten.split('--> statement-breakpoint'))
    await t.services.db.execute(sql.raw(statement));
}

/** The log codes each role of a tenant holds, by alias. */
async function held(tenantId: string): Promise<Record<string, string[]>> {
  const rows = await t.services.db
    .select({ alias: role.roleAlias, code: menu.code })
    .from(roleMenu)
    .innerJoin(role, eq(role.id, roleMenu.roleId))
    .innerJoin(menu, eq(menu.id, roleMenu.menuId))
    .where(and(eq(role.tenantId, tenantId), inArray(menu.code, CODES)));
  const out: Record<string, string[]> = {};
  for (const r of rows) out[r.alias] = [...(out[r.alias] ?? []), r.code].sort();
  return out;
}

describe('migration 0042 on a database seeded before the log viewers', () => {
  it('adds the two screens with the seed’s grants, once', async () => {
    const db = t.services.db;
    const before = { platform: await held('000000'), tenant: await held('760101') };
    expect(before.platform).toEqual({ administrator: CODES });
    expect(before.tenant).toEqual({ administrator: CODES });
    const ids = (await db.select({ id: menu.id }).from(menu).where(inArray(menu.code, CODES))).map((m) => m.id);
    await db.delete(roleMenu).where(inArray(roleMenu.menuId, ids));
    await db.delete(menu).where(inArray(menu.id, ids));

    await run();
    await run();
    const screens = await db.select().from(menu).where(inArray(menu.code, CODES));
    expect(screens.map((m) => [m.code, m.path, m.category]).sort()).toEqual([
      ['auditlog', '/system/auditlog', 1],
      ['errorlog', '/system/errorlog', 1],
    ]);
    expect({ platform: await held('000000'), tenant: await held('760101') }).toEqual(before);
  });
});
