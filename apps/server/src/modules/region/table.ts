import { sql } from 'drizzle-orm';
import { index, integer, smallint, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { globalTable } from '../../db/schema/tables.ts';

const code = (name: string) => varchar(name, { length: 12 });
const name = (column: string) => varchar(column, { length: 100 });

/**
 * 行政区划 (docs/product.md "Regions"): the GB/T 2260 tree by code. `ancestors` is the comma path of the codes above
 * ("00,33,3301"); the level columns repeat the code and name of each level down to the region itself, so a record
 * answers its whole path without a join.
 */
export const region = globalTable(
  'region',
  'The administrative divisions of the country: one tree read by every tenant, maintained by the platform administrator.',
  {
    code: code('code').notNull(),
    parentCode: code('parent_code').notNull().default('00'),
    ancestors: varchar('ancestors', { length: 64 }).notNull().default('00'),
    name: name('name').notNull(),
    level: smallint('level').notNull(),
    provinceCode: code('province_code'),
    provinceName: name('province_name'),
    cityCode: code('city_code'),
    cityName: name('city_name'),
    districtCode: code('district_code'),
    districtName: name('district_name'),
    townCode: code('town_code'),
    townName: name('town_name'),
    villageCode: code('village_code'),
    villageName: name('village_name'),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [
    uniqueIndex('region_code_uq')
      .on(t.code)
      .where(sql`is_deleted = 0`),
    index('region_parent_idx').on(t.parentCode, t.sort, t.code),
  ],
);
