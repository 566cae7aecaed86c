import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { menu, role, tenant } from '../../db/schema/index.ts';
import { leaveTypeSeed } from '../../db/seed-data/dicts.ts';
import { leaveProcessSeed, leaveBpmn } from '../../db/seed-data/leave.ts';
import { roleSeed } from '../../db/seed-data/roles.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { deployDefinition, flowDefinition, seedBizDictOnce, seedFlowCategories } from '../flow/index.ts';
import { grantProductRoles } from '../role/index.ts';

type Audit = { createUser?: string | null; createTime: Date; updateTime: Date };

/**
 * What the leave process needs in a tenant (docs/workflow.md "The leave process"), each written once: the business
 * dictionaries `leave_type` and `flow` (the process categories and their routes; each unless the tenant ever had it —
 * one removed by the tenant stays removed) and the process
 * definition `leave` deployed (unless the tenant ever had a definition of that key). The role `hr` is a product role
 * (db/seed-data/roles.ts): the seed and tenant provisioning make it. Called by the seed and by provisioning inside
 * their transaction, and at start-up for existing tenants (`seedMissingLeave`). Answers whether it wrote.
 */
export async function seedLeaveDefaults(tx: Db, tenantId: string, audit: Audit): Promise<boolean> {
  let wrote = await seedBizDictOnce(tx, tenantId, leaveTypeSeed, audit);
  // The categories, so the leave process (category 1) opens its screens (docs/workflow.md "Flow routes").
  if (await seedFlowCategories(tx, tenantId, audit)) wrote = true;
  const [def] = await tx
    .select({ id: flowDefinition.id })
    .from(flowDefinition)
    .where(and(eq(flowDefinition.tenantId, tenantId), eq(flowDefinition.defKey, leaveProcessSeed.key)))
    .limit(1);
  if (!def) {
    await deployDefinition(tx, tenantId, {
      key: leaveProcessSeed.key,
      name: leaveProcessSeed.name,
      category: leaveProcessSeed.category,
      xml: leaveBpmn,
      userId: audit.createUser ?? null,
    });
    wrote = true;
  }
  return wrote;
}

/**
 * The role `hr` for a tenant made before it (unless the tenant ever had a role of that alias), granted what the
 * product role holds (db/seed-data/roles.ts: the 我的事务 screens). Answers whether it wrote.
 */
async function ensureHrRole(tx: Db, tenantId: string, audit: Audit): Promise<boolean> {
  const [found] = await tx
    .select({ id: role.id })
    .from(role)
    .where(and(eq(role.tenantId, tenantId), eq(role.roleAlias, 'hr')))
    .limit(1);
  if (found) return false;
  const seed = roleSeed.find((r) => r.roleAlias === 'hr')!;
  await tx.insert(role).values({ id: newId(), tenantId, roleName: seed.roleName, roleAlias: 'hr', sort: seed.sort });
  // The menus the tenant sees (its own and the platform's): the role gets the 我的事务 screens among them.
  const menus = await tx.select({ id: menu.id }).from(menu).where(eq(menu.isDeleted, 0));
  await grantProductRoles(
    tx,
    tenantId,
    menus.map((m) => m.id),
    audit,
    ['hr'],
  );
  return true;
}

/**
 * At start (seed/seed.ts `migrateAndSeed`, an existing database): the role `hr`, the leave types and the leave
 * process for every live tenant made before them. One transaction per tenant; a tenant that has them costs three
 * indexed reads. Answers how many tenants got something.
 */
export async function seedMissingLeave(db: Db): Promise<number> {
  const tenants = await db.select({ tenantId: tenant.tenantId }).from(tenant).where(eq(tenant.isDeleted, 0));
  let seeded = 0;
  for (const { tenantId } of tenants) {
    const now = new Date();
    const audit = { createTime: now, updateTime: now };
    const wrote = await withTenant(db, tenantId, async (tx) => {
      const hr = await ensureHrRole(tx, tenantId, audit);
      return (await seedLeaveDefaults(tx, tenantId, audit)) || hr;
    });
    if (wrote) seeded += 1;
  }
  return seeded;
}
