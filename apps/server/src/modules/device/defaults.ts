import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { tenant } from '../../db/schema/index.ts';
import { configTemplateSeed, deviceDictSeed, type DeviceDictSeed } from '../../db/seed-data/devices.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { configTemplate, configTemplateItem, deviceDict } from './table.ts';

/**
 * The device dictionary and config templates a tenant starts with (docs/devices.md "Device records"), written once:
 * a tenant that has ever had a dictionary entry (even one since removed) is left alone. Called by the seed, by
 * tenant provisioning, and at start-up (seed/seed.ts `migrateAndSeed`) for tenants made before the devices existed. Answers whether it wrote.
 */
export async function seedDeviceDefaults(
  tx: Db,
  tenantId: string,
  audit: { createUser?: string | null; createTime: Date; updateTime: Date },
): Promise<boolean> {
  const [any] = await tx
    .select({ id: deviceDict.id })
    .from(deviceDict)
    .where(eq(deviceDict.tenantId, tenantId))
    .limit(1);
  if (any) return false;
  const rows: (typeof deviceDict.$inferInsert)[] = [];
  const walk = (nodes: DeviceDictSeed[], parentId: string) =>
    nodes.forEach((n, i) => {
      const id = newId();
      rows.push({ id, tenantId, parentId, code: n.code, name: n.name, nameEn: n.nameEn, sort: i + 1, ...audit });
      walk(n.children ?? [], id);
    });
  walk(deviceDictSeed, '0');
  await tx.insert(deviceDict).values(rows);
  for (const t of configTemplateSeed) {
    const templateId = newId();
    await tx.insert(configTemplate).values({
      id: templateId,
      tenantId,
      name: t.name,
      deviceType: t.deviceType,
      remark: t.remark,
      ...audit,
    });
    await tx.insert(configTemplateItem).values(
      t.items.map((item, i) => ({
        id: newId(),
        tenantId,
        templateId,
        itemKey: item.itemKey,
        itemName: item.itemName,
        valueType: item.valueType,
        defaultValue: item.defaultValue ?? null,
        options: item.options ?? null,
        unit: item.unit ?? null,
        min: item.min ?? null,
        max: item.max ?? null,
        required: item.required ?? 0,
        sort: i + 1,
        ...audit,
      })),
    );
  }
  return true;
}

/** At start: the defaults for every live tenant that never had them (databases made before the devices). */
export async function seedMissingDeviceDefaults(db: Db): Promise<number> {
  const tenants = await db
    .select({ tenantId: tenant.tenantId })
    .from(tenant)
    .where(and(eq(tenant.isDeleted, 0)));
  let seeded = 0;
  for (const { tenantId } of tenants) {
    const now = new Date();
    if (await withTenant(db, tenantId, (tx) => seedDeviceDefaults(tx, tenantId, { createTime: now, updateTime: now })))
      seeded += 1;
  }
  return seeded;
}
