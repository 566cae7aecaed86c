import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from './harness.ts';
import { menu, tenant, user } from '../src/db/schema/index.ts';
import { newId } from '../src/db/ids.ts';
import { withTenant } from '../src/platform/tenant-db.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.services.db.insert(tenant).values({ id: newId(), tenantId: '200001', tenantName: 'B' });
  await t.services.db.insert(user).values({ id: newId(), tenantId: '200001', account: 'b-user', password: 'x' });
});
afterAll(async () => t?.close());

describe('row-level security', () => {
  it('shows a tenant only its own rows even when the query has no tenant filter', async () => {
    const a = await withTenant(t.services.db, '000000', (tx) => tx.select({ account: user.account }).from(user));
    const b = await withTenant(t.services.db, '200001', (tx) => tx.select({ account: user.account }).from(user));
    expect(a.map((r) => r.account)).toContain('admin');
    expect(a.map((r) => r.account)).not.toContain('b-user');
    expect(b.map((r) => r.account)).toEqual(['b-user']);
  });

  it('refuses to write a row into another tenant', async () => {
    await expect(
      withTenant(t.services.db, '200001', (tx) =>
        tx.insert(user).values({ id: newId(), tenantId: '000000', account: 'sneaky', password: 'x' }),
      ),
    ).rejects.toThrow();
    const [{ n }] = await t.services.db.select({ n: count() }).from(user).where(eq(user.account, 'sneaky'));
    expect(n).toBe(0);
  });

  it("cannot update or delete another tenant's rows", async () => {
    await withTenant(t.services.db, '200001', (tx) =>
      tx.update(user).set({ realName: 'hacked' }).where(eq(user.account, 'admin')),
    );
    await withTenant(t.services.db, '200001', (tx) => tx.delete(user).where(eq(user.account, 'admin')));
    const [admin] = await t.services.db.select().from(user).where(eq(user.account, 'admin'));
    expect(admin.realName).toBe('管理员');
  });

  it('lets every tenant read platform menus but write none of them', async () => {
    const menus = await withTenant(t.services.db, '200001', (tx) => tx.select({ id: menu.id }).from(menu));
    expect(menus.length).toBeGreaterThan(0);
    await withTenant(t.services.db, '200001', (tx) => tx.update(menu).set({ name: 'x' }));
    const renamed = await t.services.db.select().from(menu).where(eq(menu.name, 'x'));
    expect(renamed).toHaveLength(0);
  });

  it('refuses to run without a tenant', async () => {
    await expect(withTenant(t.services.db, '', async () => 1)).rejects.toThrow(/tenant/);
  });
});
