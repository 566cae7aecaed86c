import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  numeric,
  smallint,
  text,
  uniqueIndex,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { idColumn, regionPrefixColumns, ts } from '../../db/schema/columns.ts';
import { tenantTable } from '../../db/schema/tables.ts';
import { clientInfo } from '../client/table.ts';
import { subDomain } from '../subdomain/table.ts';

/** The device tables (docs/devices.md "Tables"): column names there are fixed, every part of the devices work reads them. */

const live = sql`is_deleted = 0`;

/**
 * 设备字典: level 1 = device types (GB/T 28181 type code: 131 camera, 132 IP camera, 118 NVR), level 2 =
 * manufacturers of a type, level 3 = models. `name_en` is the English name answered to an English request.
 */
export const deviceDict = tenantTable(
  'device_dict',
  {
    parentId: idColumn('parent_id').notNull().default('0'),
    code: varchar('code', { length: 64 }).notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    nameEn: varchar('name_en', { length: 64 }),
    sort: integer('sort').notNull().default(0),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [
    uniqueIndex('device_dict_code_uq').on(t.tenantId, t.parentId, t.code).where(live),
    index('device_dict_parent_idx').on(t.tenantId, t.parentId, t.sort).where(live),
  ],
);

/** 配置模板: a device type's configuration items. `status` 1 enabled / 2 disabled. */
export const configTemplate = tenantTable(
  'config_template',
  {
    name: varchar('name', { length: 64 }).notNull(),
    deviceType: varchar('device_type', { length: 16 }).notNull(),
    manufacturer: varchar('manufacturer', { length: 64 }),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [
    index('config_template_tenant_idx').on(t.tenantId, t.id).where(live),
    index('config_template_type_idx').on(t.tenantId, t.deviceType).where(live),
  ],
);

/** 配置项: one item of a template; `value_type` string | number | boolean | enum, `options` comma-separated. */
export const configTemplateItem = tenantTable(
  'config_template_item',
  {
    templateId: idColumn('template_id')
      .notNull()
      .references(() => configTemplate.id),
    itemKey: varchar('item_key', { length: 64 }).notNull(),
    itemName: varchar('item_name', { length: 64 }).notNull(),
    valueType: varchar('value_type', { length: 16 }).notNull(),
    defaultValue: varchar('default_value', { length: 255 }),
    options: varchar('options', { length: 500 }),
    unit: varchar('unit', { length: 32 }),
    min: numeric('min', { mode: 'number' }),
    max: numeric('max', { mode: 'number' }),
    required: smallint('required').notNull().default(0),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    uniqueIndex('config_template_item_key_uq').on(t.tenantId, t.templateId, t.itemKey).where(live),
    index('config_template_item_template_idx').on(t.tenantId, t.templateId, t.sort).where(live),
  ],
);

/**
 * 摄像机 / NVR. `status`: 0 offline (a new device), 1 online, 2 disabled — device access writes 0/1 without touching
 * `version`. The sealed columns and `secret_sealed` are never answered.
 */
export const cameraDevice = tenantTable(
  'camera_device',
  {
    deviceCode: varchar('device_code', { length: 20 }).notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    deviceType: varchar('device_type', { length: 16 }).notNull(),
    manufacturer: varchar('manufacturer', { length: 64 }),
    model: varchar('model', { length: 64 }),
    regionCode: varchar('region_code', { length: 12 }).notNull(),
    ...regionPrefixColumns(),
    address: varchar('address', { length: 255 }),
    lng: numeric('lng', { precision: 10, scale: 6, mode: 'number' }),
    lat: numeric('lat', { precision: 10, scale: 6, mode: 'number' }),
    clientId: idColumn('client_id').references(() => clientInfo.id),
    nvrId: idColumn('nvr_id').references((): AnyPgColumn => cameraDevice.id),
    channelNo: integer('channel_no'),
    ip: varchar('ip', { length: 64 }),
    port: integer('port'),
    protocol: varchar('protocol', { length: 16 }),
    streamUrlSealed: text('stream_url_sealed'),
    streamUrl: varchar('stream_url', { length: 512 }),
    ptz: smallint('ptz').notNull().default(0),
    onvifUrl: varchar('onvif_url', { length: 512 }),
    onvifUser: varchar('onvif_user', { length: 64 }),
    onvifPasswordSealed: text('onvif_password_sealed'),
    configTemplateId: idColumn('config_template_id').references(() => configTemplate.id),
    configValues: jsonb('config_values').$type<Record<string, unknown>>(),
    subDomainId: idColumn('sub_domain_id').references(() => subDomain.id),
    secretSealed: text('secret_sealed'),
    lastSeen: ts('last_seen'),
  },
  (t) => [
    uniqueIndex('camera_device_code_uq').on(t.tenantId, t.deviceCode).where(live),
    index('camera_device_region_idx').on(t.tenantId, t.regionCode.op('varchar_pattern_ops'), t.id).where(live),
    index('camera_device_client_idx').on(t.tenantId, t.clientId, t.id).where(live),
    index('camera_device_nvr_idx').on(t.tenantId, t.nvrId).where(live),
    // A channel shows at most one camera: the camera's (NVR, channel number) is the truth of the link, unique among
    // live rows; nvr_channel.camera_id is derived from it by triggers (docs/devices.md "Links between cameras and
    // channels", migration 0032).
    uniqueIndex('camera_device_channel_uq')
      .on(t.tenantId, t.nvrId, t.channelNo)
      .where(sql`is_deleted = 0 and channel_no is not null`),
    // The list's default order (create_time desc, id) with the region range checked inside the index: a region
    // admin's page reads no row outside its region, and no heap row to skip one (docs/devices.md "Camera list").
    index('camera_device_list_idx')
      .on(t.tenantId, t.createTime.desc().nullsFirst(), t.id, t.regionCode.op('varchar_pattern_ops'))
      .where(live),
    // A province's or a city's admin (data scope `region_p2 = …` / `region_p4 = …`): its page N in the list's order
    // from these alone, however deep (docs/devices.md "Camera list").
    index('camera_device_p2_list_idx').on(t.tenantId, t.regionP2, t.createTime.desc().nullsFirst(), t.id).where(live),
    index('camera_device_p4_list_idx').on(t.tenantId, t.regionP4, t.createTime.desc().nullsFirst(), t.id).where(live),
    // The offline sweep (docs/devices.md "Device access") reads only the online devices gone silent.
    index('camera_device_online_seen_idx')
      .on(t.tenantId, t.lastSeen)
      .where(sql`is_deleted = 0 and status = 1`),
  ],
);

/** NVR 通道: one NVR's channels, replaced as a whole by `saveNvrChannelInfo` (`replaceChannels` in channels.ts). */
export const nvrChannel = tenantTable(
  'nvr_channel',
  {
    nvrDeviceId: idColumn('nvr_device_id')
      .notNull()
      .references(() => cameraDevice.id),
    channelNo: integer('channel_no').notNull(),
    channelCode: varchar('channel_code', { length: 20 }),
    name: varchar('name', { length: 64 }),
    cameraId: idColumn('camera_id').references(() => cameraDevice.id),
    regionCode: varchar('region_code', { length: 12 }),
    /** The NVR's owner, copied like the region: a client account's data scope (own client) reads it. */
    clientId: idColumn('client_id').references(() => clientInfo.id),
  },
  (t) => [
    uniqueIndex('nvr_channel_no_uq').on(t.tenantId, t.nvrDeviceId, t.channelNo).where(live),
    index('nvr_channel_region_idx').on(t.tenantId, t.regionCode.op('varchar_pattern_ops'), t.id).where(live),
    index('nvr_channel_camera_idx').on(t.tenantId, t.cameraId).where(live),
    index('nvr_channel_client_idx').on(t.tenantId, t.clientId, t.id).where(live),
  ],
);

/**
 * 摄像机网络 (docs/devices.md "Camera addresses"): the tenant's private camera networks, one CIDR each (normalised to
 * its network address). A camera address in a private range must lie in one of them.
 */
export const cameraNetwork = tenantTable(
  'camera_network',
  {
    name: varchar('name', { length: 64 }).notNull(),
    cidr: varchar('cidr', { length: 64 }).notNull(),
    remark: varchar('remark', { length: 255 }),
  },
  (t) => [uniqueIndex('camera_network_cidr_uq').on(t.tenantId, t.cidr).where(live)],
);
