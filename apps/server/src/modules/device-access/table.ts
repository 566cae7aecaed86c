import { index, integer, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { tenantLinkTable } from '../../db/schema/tables.ts';

/**
 * 设备状态事件 (docs/devices.md "device_status_event"): one row per change of `camera_device.status` made by device
 * access (a device coming online, going offline by its own message or by the sweep) — never one per heartbeat.
 * Append-only: no audit columns, no soft delete; statistics read it for the daily rollups.
 */
export const deviceStatusEvent = tenantLinkTable(
  'device_status_event',
  {
    id: idColumn('id').primaryKey(),
    deviceId: idColumn('device_id').notNull(),
    deviceCode: varchar('device_code', { length: 20 }).notNull(),
    regionCode: varchar('region_code', { length: 12 }).notNull(),
    deviceType: varchar('device_type', { length: 16 }).notNull(),
    fromStatus: integer('from_status').notNull(),
    toStatus: integer('to_status').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [
    index('device_status_event_at_idx').on(t.tenantId, t.at),
    index('device_status_event_device_idx').on(t.tenantId, t.deviceId, t.at),
  ],
);
