import { sql } from 'drizzle-orm';
import { check, index, integer, smallint, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/schema/columns.ts';
import { declareGlobal, pgTable, tenantTable } from '../../db/schema/tables.ts';
import { clientInfo } from '../client/table.ts';

/**
 * 子域名 (docs/subdomains.md). `status`: 0 applied, 1 approved, 2 running, 3 stopped, 4 rejected. A label is taken in
 * its tenant by every live application that was not rejected — the database says so (`subdomain_label_uq`).
 */
export const subDomain = tenantTable(
  'sub_domain',
  {
    clientId: idColumn('client_id')
      .notNull()
      .references(() => clientInfo.id),
    appClientAccount: varchar('app_client_account', { length: 45 }),
    /** One DNS label, lower case. */
    subDomain: varchar('sub_domain', { length: 32 }).notNull(),
    fullDomain: varchar('full_domain', { length: 255 }).notNull(),
    regionCode: varchar('region_code', { length: 12 }),
    bindCount: integer('bind_count').notNull().default(0),
    bindLimit: integer('bind_limit').notNull().default(10),
    startTime: ts('start_time'),
    stopTime: ts('stop_time'),
    remark: varchar('remark', { length: 500 }),
  },
  (t) => [
    // Labels are stored lower-case (the check says so), so the index and every lookup compare them as they are:
    // `lower()` is not leakproof, and under row-level security it turned each lookup into a scan of the table.
    uniqueIndex('subdomain_label_uq')
      .on(t.tenantId, t.subDomain)
      .where(sql`is_deleted = 0 and status <> 4`),
    check('subdomain_label_lower', sql`${t.subDomain} = lower(${t.subDomain})`),
    index('subdomain_client_idx')
      .on(t.tenantId, t.clientId, t.id)
      .where(sql`is_deleted = 0`),
    index('subdomain_region_idx')
      .on(t.tenantId, t.regionCode.op('varchar_pattern_ops'), t.id)
      .where(sql`is_deleted = 0`),
    index('subdomain_tenant_idx')
      .on(t.tenantId, t.id)
      .where(sql`is_deleted = 0`),
  ],
);

/**
 * Every full domain held by a live application, whatever its tenant (docs/subdomains.md "Full domains across
 * tenants"): the primary key makes a full domain one tenant's, and the public `ask` and `tenant/info` find a running
 * host's tenant here without reading any tenant's rows. On the main database only, written in the application's
 * transaction — or beside it for a tenant on a data source (hosts.ts).
 */
declareGlobal(
  'sub_domain_host',
  'full domains are one namespace across tenants: the public ask and tenant/info resolve a host before any tenant is known',
);
export const subDomainHost = pgTable(
  'sub_domain_host',
  {
    fullDomain: varchar('full_domain', { length: 255 }).primaryKey(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    subDomainId: idColumn('sub_domain_id').notNull(),
    /** 1 while the application is running (the host answers), else 0. */
    running: smallint('running').notNull().default(0),
    /**
     * When the host was claimed: a moved tenant's claim younger than the grace of modules/subdomain/hosts.ts may
     * belong to a transaction still running, and is left alone by a sync.
     */
    claimedAt: ts('claimed_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sub_domain_host_record_uq').on(t.tenantId, t.subDomainId)],
);
