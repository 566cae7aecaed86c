import { sql } from 'drizzle-orm';
import { index, jsonb, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { ConfigObject } from '@atrium/contract/resources/system/sysconfigregion';
import { tenantTable } from '../../db/schema/tables.ts';

/**
 * 区域配置 (docs/product.md "Config by region"): one flat object of settings per tenant, region and config type;
 * region '00' is the tenant's default. One live entry per (tenant, region, type).
 */
export const sysConfigRegion = tenantTable(
  'sys_config_region',
  {
    regionCode: varchar('region_code', { length: 12 }).notNull(),
    sysType: varchar('sys_type', { length: 64 }).notNull(),
    config: jsonb('config').$type<ConfigObject>().notNull(),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [
    uniqueIndex('sys_config_region_uq')
      .on(t.tenantId, t.regionCode, t.sysType)
      .where(sql`is_deleted = 0`),
    // Whether a region is still used by any tenant (region removal).
    index('sys_config_region_region_idx').on(t.regionCode),
  ],
);
