import { and, eq, sql, type SQL } from 'drizzle-orm';
import { fill, type Msg } from '@atrium/contract';
import { SUBDOMAIN_STATUS } from '@atrium/contract/resources/subdomain/subdomain_list';
import type { Db } from '../../db/client.ts';
import { param, tenant } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { BLACK_TYPE, isBlocked } from '../blacklist/index.ts';
import { subdomainTexts as texts } from './messages.ts';
import { hostsApart, takenElsewhere } from './hosts.ts';
import { normaliseLabel, shapeReason } from './rules.ts';
import { subDomain, subDomainHost } from './table.ts';
import { rowsOf } from '../../db/rows.ts';

/** Sub-domains (docs/subdomains.md): the legality check, the host namespace across tenants, binding devices. */

export type SubDomainRow = typeof subDomain.$inferSelect;

/** Parameters (the global `param` table; seeded in db/seed-data/params.ts). */
export const PARAM_BASE = 'subdomain.base';
export const PARAM_BIND_LIMIT = 'subdomain.bindLimit';
export const DEFAULT_BIND_LIMIT = 10;

async function paramValue(tx: Db, key: string): Promise<string | null> {
  const [row] = await tx
    .select({ v: param.paramValue })
    .from(param)
    .where(and(eq(param.paramKey, key), eq(param.isDeleted, 0)))
    .limit(1);
  return row?.v?.trim() || null;
}

/**
 * The base domain of a tenant's sub-domains: the tenant's own domain when it has one, else the platform parameter
 * `subdomain.base`; lower case, without a leading or final dot. Null when neither is set. Both are read in one
 * statement (one round trip: the legality check runs as the name is typed).
 */
export async function baseDomainOf(tx: Db, tenantId: string): Promise<string | null> {
  const [row] = await rowsOf<{ domain: string | null; base: string | null }>(
    tx,
    sql`
    select (select ${tenant.domain} from ${tenant}
             where ${tenant.tenantId} = ${tenantId} and ${tenant.isDeleted} = 0 limit 1) as domain,
           (select ${param.paramValue} from ${param}
             where ${param.paramKey} = ${PARAM_BASE} and ${param.isDeleted} = 0 limit 1) as base`,
  );
  const raw = row?.domain?.trim() || row?.base?.trim() || null;
  const base = raw?.toLowerCase().replace(/^\.+|\.+$/g, '');
  return base || null;
}

export async function bindLimitParam(tx: Db): Promise<number> {
  const n = Number(await paramValue(tx, PARAM_BIND_LIMIT));
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_BIND_LIMIT;
}

export type Legality = { legal: boolean; reason: Msg; label: string; fullDomain: string | null };

/**
 * Whether a label may be applied for in a tenant, and why not: its shape (rules.ts), the blacklist's words, then
 * taken — by a live application of the tenant that was not rejected (any case), or by any tenant's full domain.
 * Runs inside the caller's transaction (of that tenant): two indexed lookups and the cached word matcher.
 */
export async function checkLegal(s: Services, tx: Db, tenantId: string, raw: string | null | undefined) {
  const label = normaliseLabel(raw);
  const refuse = (reason: Msg): Legality => ({ legal: false, reason, label, fullDomain: null });
  const shape = shapeReason(label);
  if (shape) return refuse(shape);
  if (await isBlocked(s, tenantId, BLACK_TYPE.word, label, { tx })) return refuse(texts.blocked);
  const base = await baseDomainOf(tx, tenantId);
  if (!base) return refuse(texts.noBase);
  const fullDomain = `${label}.${base}`;
  // A moved tenant's transaction runs on its data source; the host namespace is on the main database (hosts.ts).
  const apart = hostsApart(s, tenantId);
  const hosts = apart ? sql`false` : sql`exists (select 1 from ${subDomainHost} where full_domain = ${fullDomain})`;
  const [answer] = await rowsOf<{ taken: boolean }>(
    tx,
    sql`
    select exists (
             select 1 from ${subDomain}
              where tenant_id = ${tenantId} and sub_domain = ${label} and is_deleted = 0 and status <> 4
           ) or ${hosts} as taken`,
  );
  if (answer?.taken || (apart && (await takenElsewhere(s, tenantId, fullDomain)))) return refuse(texts.taken);
  return { legal: true, reason: texts.legal, label, fullDomain } satisfies Legality;
}

/**
 * The tenant a running sub-domain's host belongs to, read from the global host table (no tenant's rows are read):
 * for the public `ask` and `tenant/info`. Null when no running sub-domain has that host or its tenant is gone.
 */
export async function runningHostTenant(db: Db, host: string): Promise<string | null> {
  const domain = normaliseHost(host);
  if (!domain) return null;
  const [row] = await db
    .select({ tenantId: subDomainHost.tenantId })
    .from(subDomainHost)
    .innerJoin(tenant, and(eq(tenant.tenantId, subDomainHost.tenantId), eq(tenant.isDeleted, 0), eq(tenant.status, 1)))
    .where(and(eq(subDomainHost.fullDomain, domain), eq(subDomainHost.running, 1)))
    .limit(1);
  return row?.tenantId ?? null;
}

/** A host as the host table keeps it (lower case, no final dot); null when it cannot be one. */
function normaliseHost(host: string): string | null {
  const domain = host.trim().toLowerCase().replace(/\.$/, '');
  return !domain || domain.length > 255 ? null : domain;
}

/**
 * The tenant id of the running sub-domain whose host is `host`, as a subquery (null when none), so that a caller reads
 * it in its own statement (`tenant/info`: one statement, one turn at the database — docs/server.md "Embedded
 * database"). The tenant's own state is the caller's to check.
 */
export function runningHostTenantSql(host: string): SQL {
  const domain = normaliseHost(host);
  if (!domain) return sql`null::varchar`;
  return sql`(select ${subDomainHost.tenantId} from ${subDomainHost} where ${subDomainHost.fullDomain} = ${domain} and ${subDomainHost.running} = 1 limit 1)`;
}

/** Whether a client has a running sub-domain (a client in this state cannot be removed). */
export async function hasRunningSubDomain(tx: Db, tenantId: string, clientId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: subDomain.id })
    .from(subDomain)
    .where(
      and(
        eq(subDomain.tenantId, tenantId),
        eq(subDomain.clientId, clientId),
        eq(subDomain.isDeleted, 0),
        eq(subDomain.status, SUBDOMAIN_STATUS.running),
      ),
    )
    .limit(1);
  return !!row;
}

/**
 * Binds one device to a running sub-domain, in the caller's transaction (the device module calls it): bindCount + 1,
 * refused at the limit. The update is one conditional statement, so concurrent binds never pass the limit.
 * 404 when the sub-domain is not a live one of the tenant.
 */
export async function bindDevice(tx: Db, tenantId: string, subDomainId: string): Promise<SubDomainRow> {
  const [row] = await tx
    .update(subDomain)
    .set({ bindCount: sql`${subDomain.bindCount} + 1`, version: sql`${subDomain.version} + 1` })
    .where(
      and(
        eq(subDomain.tenantId, tenantId),
        eq(subDomain.id, subDomainId),
        eq(subDomain.isDeleted, 0),
        eq(subDomain.status, SUBDOMAIN_STATUS.running),
        sql`${subDomain.bindCount} < ${subDomain.bindLimit}`,
      ),
    )
    .returning();
  if (row) return row;
  const [found] = await tx
    .select()
    .from(subDomain)
    .where(and(eq(subDomain.tenantId, tenantId), eq(subDomain.id, subDomainId), eq(subDomain.isDeleted, 0)));
  if (!found) throw notFound();
  if (found.status !== SUBDOMAIN_STATUS.running) throw badRequest(texts.bindNotRunning);
  throw new AppError(400, fill(texts.bindFull, { limit: found.bindLimit }));
}

/** One device fewer (never below 0), in the caller's transaction. */
export const unbindDevice = (tx: Db, tenantId: string, subDomainId: string) =>
  tx
    .update(subDomain)
    .set({ bindCount: sql`greatest(${subDomain.bindCount} - 1, 0)` })
    .where(and(eq(subDomain.tenantId, tenantId), eq(subDomain.id, subDomainId)));

/** The latest live application of a label in a tenant (optionally of one client account). */
export async function latestApplication(
  tx: Db,
  tenantId: string,
  label: string,
  extra?: ReturnType<typeof and>,
): Promise<SubDomainRow | undefined> {
  const [row] = await tx
    .select()
    .from(subDomain)
    .where(and(eq(subDomain.tenantId, tenantId), eq(subDomain.subDomain, label), eq(subDomain.isDeleted, 0), extra))
    .orderBy(sql`${subDomain.id} desc`)
    .limit(1);
  return row;
}
