import { customType, integer, smallint, timestamp } from 'drizzle-orm/pg-core';

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
