import { date, index, integer, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { tenantLinkTable } from '../../db/schema/tables.ts';

/**
 * The statistics counters and the daily rollup (docs/devices.md "Statistics"). The counters are kept by triggers on
 * `camera_device` and `nvr_channel` in the same transaction as the change they count (migration
 * `statistics_triggers`); no statistics call scans the devices. `district` is the first 6 digits of a device's
 * `region_code`. Tenant tables like every other: the tenant policy, forced at migrate.
 */

/** Live devices (is_deleted = 0) per district and device type: all of them, and those online (status 1). */
export const statDeviceCounter = tenantLinkTable(
  'stat_device_counter',
  {
    district: varchar('district', { length: 6 }).notNull(),
    deviceType: varchar('device_type', { length: 16 }).notNull(),
    total: integer('total').notNull().default(0),
    online: integer('online').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'stat_device_counter_pk', columns: [t.tenantId, t.district, t.deviceType] })],
);

/** Live NVR channels per district. */
export const statChannelCounter = tenantLinkTable(
  'stat_channel_counter',
  {
    district: varchar('district', { length: 6 }).notNull(),
    total: integer('total').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'stat_channel_counter_pk', columns: [t.tenantId, t.district] })],
);

/**
 * The device counters as they stood at the end of `day` (in the server's time zone): past days and the 30-day line.
 * One row per region prefix and type: `district` holds 6 digits (a district), 4 (its city), 2 (its province) or ''
 * (the whole tenant), so a region's line reads its own rows and a past day's children read one level.
 */
export const statDeviceDaily = tenantLinkTable(
  'stat_device_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    district: varchar('district', { length: 6 }).notNull(),
    deviceType: varchar('device_type', { length: 16 }).notNull(),
    total: integer('total').notNull().default(0),
    online: integer('online').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'stat_device_daily_pk', columns: [t.tenantId, t.day, t.district, t.deviceType] }),
    index('stat_device_daily_district_idx').on(t.tenantId, t.district, t.day),
  ],
);
