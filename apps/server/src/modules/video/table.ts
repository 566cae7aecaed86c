import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { ts } from '../../db/schema/columns.ts';
import { declareGlobal } from '../../db/schema/tables.ts';

/**
 * Which server runs each camera's stream (docs/cluster.md "Live video across servers"). Both tables are the
 * cluster's, across tenants: the cap is counted over every tenant's streams in the claim's transaction, and no
 * tenant route reads them (each request compares the row's tenant with its verified token's).
 */

declareGlobal(
  'video_server',
  'the servers running live video, their internal address and lease: no tenant data; the cap is counted across them',
);

/** One row per running server (a random id per start): renewed every second, expired by its lease. */
export const videoServer = pgTable(
  'video_server',
  {
    id: varchar('id', { length: 32 }).primaryKey(),
    /** Where the other servers reach it (ATRIUM_INTERNAL_URL, else http://127.0.0.1:<port>): written by itself only. */
    url: varchar('url', { length: 255 }).notNull(),
    /** ATRIUM_SERVER_NAME, for people reading the table. */
    name: varchar('name', { length: 64 }),
    leaseUntil: ts('lease_until').notNull(),
    startedAt: ts('started_at').notNull().defaultNow(),
  },
  (t) => [index('video_server_lease_idx').on(t.leaseUntil)],
);

declareGlobal(
  'video_stream',
  "the cluster's running streams (camera, owner, who it is charged to) across tenants, so the cap holds cluster-wide; no camera address",
);

/**
 * One row per camera whose stream runs (the primary key: never two processes for one camera), written by its owner
 * when it starts ffmpeg, removed when the stream stops; a dead owner's rows are taken over by the next touch.
 */
export const videoStream = pgTable(
  'video_stream',
  {
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    cameraId: varchar('camera_id', { length: 32 }).notNull(),
    streamId: varchar('stream_id', { length: 32 }).notNull(),
    serverId: varchar('server_id', { length: 32 })
      .notNull()
      .references(() => videoServer.id, { onDelete: 'cascade' }),
    /** The user whose share it takes (docs/devices.md "Fair shares"). */
    chargedTo: varchar('charged_to', { length: 32 }).notNull(),
    /** Users who opened it: only they may touch it or read its files (also after a take-over). */
    viewers: text('viewers')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Failed for good: holds no process, counts against no share; kept for its viewers' touches to read why. */
    failed: boolean('failed').notNull().default(false),
    startedAt: ts('started_at').notNull().defaultNow(),
    touchedAt: ts('touched_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'video_stream_pk', columns: [t.tenantId, t.cameraId] }),
    uniqueIndex('video_stream_id_idx').on(t.streamId),
    index('video_stream_server_idx').on(t.serverId),
  ],
);
