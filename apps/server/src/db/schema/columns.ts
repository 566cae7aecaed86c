import { sql } from 'drizzle-orm';
import { customType, integer, smallint, timestamp, varchar } from 'drizzle-orm/pg-core';

/** 64-bit ids travel as strings (JavaScript loses precision above 2^53); the column stays a real bigint. */
export const idColumn = customType<{ data: string; driverData: string | number | bigint }>({
  dataType: () => 'bigint',
  fromDriver: (v) => String(v),
  toDriver: (v) => v,
});

export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The columns every tenant-scoped record carries (docs/system-api.md "Envelope"). */
export const auditColumns = () => ({
  createUser: idColumn('create_user'),
  createDept: idColumn('create_dept'),
  createTime: ts('create_time').notNull().defaultNow(),
  updateUser: idColumn('update_user'),
  updateTime: ts('update_time').notNull().defaultNow(),
  status: integer('status').notNull().default(1),
  isDeleted: smallint('is_deleted').notNull().default(0),
  version: integer('version').notNull().default(1),
});

/**
 * A region code's province (2 digits) and city (4 digits) prefixes, stored generated columns of a table with a
 * `region_code`: a region admin's data scope is then `region_p2 = '13'` (or `region_p4`), which an index led by
 * `(tenant_id, region_pN, <the list's order>)` answers in order — the newest 10 of a province, or its 10,000th, read
 * from that index alone (docs/server.md "Region prefix columns"). The data scope finds them by these names.
 */
export const regionPrefixColumns = () => ({
  regionP2: varchar('region_p2', { length: 2 }).generatedAlwaysAs(sql`left(region_code, 2)`),
  regionP4: varchar('region_p4', { length: 4 }).generatedAlwaysAs(sql`left(region_code, 4)`),
});
