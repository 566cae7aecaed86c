import { sql } from 'drizzle-orm';
import { index, integer, numeric, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { tenantTable } from '../../db/schema/tables.ts';

const live = sql`is_deleted = 0`;

/**
 * 客户 (docs/clients.md): an organisation bringing its cameras. `status`: 1 pending review, 2 approved, 3 rejected,
 * 4 disabled. The password chosen at registration waits here, hashed, until the approval creates the account.
 */
export const clientInfo = tenantTable(
  'client_info',
  {
    clientName: varchar('client_name', { length: 100 }).notNull(),
    clientType: smallint('client_type').notNull(),
    creditCode: varchar('credit_code', { length: 18 }).notNull(),
    contactName: varchar('contact_name', { length: 30 }).notNull(),
    contactIdCard: varchar('contact_id_card', { length: 18 }),
    operatorTel: varchar('operator_tel', { length: 11 }).notNull(),
    email: varchar('email', { length: 100 }),
    regionCode: varchar('region_code', { length: 12 }).notNull(),
    address: varchar('address', { length: 200 }),
    lng: numeric('lng', { precision: 10, scale: 6, mode: 'number' }),
    lat: numeric('lat', { precision: 10, scale: 6, mode: 'number' }),
    licenceAttachId: varchar('licence_attach_id', { length: 500 }),
    appClientAccount: varchar('app_client_account', { length: 45 }),
    /** 1 registered on the public page, 2 entered by staff. */
    source: smallint('source').notNull().default(2),
    remark: varchar('remark', { length: 500 }),
    pendingPassword: text('pending_password'),
    accountUserId: idColumn('account_user_id'),
  },
  (t) => [
    uniqueIndex('client_info_tel_uq').on(t.tenantId, t.operatorTel).where(live),
    uniqueIndex('client_info_account_uq').on(t.tenantId, t.appClientAccount).where(live),
    // Region admins' pages: newest first below a region prefix.
    index('client_info_region_idx').on(t.tenantId, t.regionCode.op('varchar_pattern_ops'), t.id).where(live),
    index('client_info_tenant_idx').on(t.tenantId, t.id).where(live),
    index('client_info_status_idx').on(t.tenantId, t.status, t.id).where(live),
  ],
);

/** Follow-up records of a client: calls, visits, emails (a sent email adds one by itself), messages. */
export const clientTrack = tenantTable(
  'client_track',
  {
    clientId: idColumn('client_id')
      .notNull()
      .references(() => clientInfo.id),
    trackType: smallint('track_type').notNull(),
    content: varchar('content', { length: 2000 }).notNull(),
    trackTime: ts('track_time').notNull(),
    nextTrackTime: ts('next_track_time'),
    /** The queued email of a type-3 record (its state is the outbox row's). */
    outboxId: idColumn('outbox_id'),
    trackerName: varchar('tracker_name', { length: 50 }),
  },
  (t) => [
    index('client_track_client_idx').on(t.tenantId, t.clientId, t.id),
    // The tracking screen's page: newest track time first across the tenant (docs/clients.md "Client tracking").
    index('client_track_time_idx').on(t.tenantId, t.trackTime, t.id).where(live),
  ],
);

/**
 * SMS codes of the public registration (docs/clients.md "Registration"): hashed, bound to a user agent, five tries,
 * five minutes; a right code turns into a one-use ticket (15 minutes). Rows are kept for the send limits.
 */
export const clientCode = tenantTable(
  'client_code',
  {
    phone: varchar('phone', { length: 11 }).notNull(),
    /** 1 register, 2 reset password */
    type: smallint('type').notNull(),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    agentHash: varchar('agent_hash', { length: 64 }).notNull(),
    ip: varchar('ip', { length: 45 }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    tries: integer('tries').notNull().default(0),
    usedAt: ts('used_at'),
    ticketHash: varchar('ticket_hash', { length: 64 }),
    ticketExpiresAt: ts('ticket_expires_at'),
    ticketUsedAt: ts('ticket_used_at'),
  },
  (t) => [
    index('client_code_phone_idx').on(t.tenantId, t.phone, t.id),
    index('client_code_ip_idx').on(t.tenantId, t.ip, t.id),
    uniqueIndex('client_code_ticket_uq').on(t.ticketHash),
  ],
);
