import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { dictBiz } from '../../db/schema/index.ts';
import type { DictSeed } from '../../db/seed-data/dicts.ts';
import { flowCategorySeed } from '../../db/seed-data/dicts.ts';

type Audit = { createUser?: string | null; createTime: Date; updateTime: Date };

/**
 * A business dictionary of a tenant, written once: unless the tenant ever had one of that code (a dictionary the
 * tenant removed stays removed). Answers whether it wrote.
 */
export async function seedBizDictOnce(tx: Db, tenantId: string, seed: DictSeed, audit: Audit): Promise<boolean> {
  const [found] = await tx
    .select({ id: dictBiz.id })
    .from(dictBiz)
    .where(and(eq(dictBiz.tenantId, tenantId), eq(dictBiz.code, seed.code)))
    .limit(1);
  if (found) return false;
  const parentId = newId();
  const base = { tenantId, code: seed.code, isSealed: 0, ...audit };
  await tx.insert(dictBiz).values([
    {
      ...base,
      id: parentId,
      parentId: '0',
      dictKey: '-1',
      dictValue: seed.dictValue,
      dictValueEn: seed.dictValueEn ?? null,
      remark: seed.remark ?? null,
      sort: 100,
    },
    ...seed.children.map((c) => ({
      ...base,
      id: newId(),
      parentId,
      dictKey: c.dictKey,
      dictValue: c.dictValue,
      dictValueEn: c.dictValueEn ?? null,
      remark: c.remark ?? null,
      sort: c.sort,
    })),
  ]);
  return true;
}

/** The process categories and their screens' routes (docs/workflow.md "Flow routes") in a tenant, written once. */
export const seedFlowCategories = (tx: Db, tenantId: string, audit: Audit) =>
  seedBizDictOnce(tx, tenantId, flowCategorySeed, audit);
