import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import { CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import { subdomain_list as def, SUBDOMAIN_STATUS } from '@atrium/contract/resources/subdomain/subdomain_list';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { tenant } from '../../db/schema/index.ts';
import { writeAudit, type Row } from '../../platform/crud.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { openApproval } from '../approval/index.ts';
import { clientInfo, fixtureApprovedClient } from '../client/index.ts';
import { enqueueSms } from '../outbox/index.ts';
import { subdomainLifecycleTexts as life, subdomainTexts as texts } from './messages.ts';
import { claimHost, setHostRunning } from './hosts.ts';
import { baseDomainOf, bindLimitParam, checkLegal, type SubDomainRow } from './service.ts';
import { subDomain } from './table.ts';

/**
 * A sub-domain's life (docs/subdomains.md), without the app: the application and its approval, start and stop, the
 * client told of the decision. Each runs in the caller's transaction.
 */

/** The approvals' `referType` of a sub-domain application. */
export const REFER = 'subdomain';

/**
 * An application: the client (a client account's own, or the one staff name by its account within `scope`), a legal
 * label claimed, state 0 and a pending approval, audited. Answers the new row.
 */
export async function applySubDomain(
  s: Services,
  tx: Db,
  auth: AuthContext,
  call: { subDomain: string; account: string | undefined; requestId: string },
  scope: SQL | undefined,
): Promise<SubDomainRow> {
  const given = call.account;
  const [c] = await tx
    .select()
    .from(clientInfo)
    .where(
      and(
        eq(clientInfo.tenantId, auth.tenantId),
        eq(clientInfo.isDeleted, 0),
        eq(clientInfo.status, CLIENT_STATUS.approved),
        auth.clientInfoId ? eq(clientInfo.id, auth.clientInfoId) : eq(clientInfo.appClientAccount, given!),
        scope,
      ),
    )
    .limit(1);
  if (!c) throw badRequest(texts.noClient, [{ field: 'appClientAccount', message: texts.noClient }]);
  if (auth.clientInfoId && given && given !== c.appClientAccount) throw badRequest(life.notYours);
  const legality = await checkLegal(s, tx, auth.tenantId, call.subDomain);
  if (!legality.legal) throw badRequest(legality.reason, [{ field: 'subDomain', message: legality.reason }]);
  const now = s.now();
  const id = newId();
  const values = {
    id,
    tenantId: auth.tenantId,
    clientId: c.id,
    appClientAccount: c.appClientAccount ?? given ?? null,
    subDomain: legality.label,
    fullDomain: legality.fullDomain!,
    regionCode: c.regionCode,
    bindCount: 0,
    bindLimit: await bindLimitParam(tx),
    status: SUBDOMAIN_STATUS.applied,
    createUser: auth.userId,
    createDept: auth.deptId,
    createTime: now,
    updateUser: auth.userId,
    updateTime: now,
  };
  // Two applications of one label race to the unique index: the loser is told it is taken.
  try {
    await tx.execute(sql`savepoint apply_subdomain`);
    await tx.insert(subDomain).values(values);
    await tx.execute(sql`release savepoint apply_subdomain`);
  } catch (err) {
    await tx.execute(sql`rollback to savepoint apply_subdomain`);
    const e = err as { code?: string; cause?: { code?: string } };
    if (e.code === '23505' || e.cause?.code === '23505')
      throw badRequest(texts.taken, [{ field: 'subDomain', message: texts.taken }]);
    throw err;
  }
  await claimHost(s, tx, auth.tenantId, id, values.fullDomain);
  await openApproval(
    tx,
    auth.tenantId,
    {
      referType: REFER,
      referId: id,
      title: fill(texts.approvalTitle, { domain: values.fullDomain }).zh,
      applicantName: c.clientName,
      applicantPhone: c.operatorTel,
      regionCode: c.regionCode,
      userId: auth.userId,
    },
    now,
  );
  await writeAudit(s, tx, auth, call.requestId, def.code, 'apply', id, null, {
    subDomain: values.subDomain,
    clientId: c.id,
  });
  return { ...values, isDeleted: 0, version: 1, startTime: null, stopTime: null, remark: null } as SubDomainRow;
}

/** Starts sub-domains: each one's client must be approved; the host answers from now on. */
export async function startSubDomains(s: Services, tx: Db, tenantId: string, rows: Row[], now: Date): Promise<void> {
  const clientIds = rows.map((r) => String(r.clientId));
  const clients = await tx
    .select({ id: clientInfo.id })
    .from(clientInfo)
    .where(
      and(
        eq(clientInfo.tenantId, tenantId),
        inArray(clientInfo.id, clientIds),
        eq(clientInfo.isDeleted, 0),
        eq(clientInfo.status, CLIENT_STATUS.approved),
      ),
    );
  if (clients.length !== new Set(clientIds).size) throw badRequest(life.clientNotApproved);
  for (const r of rows) {
    await tx.update(subDomain).set({ startTime: now, stopTime: null }).where(eq(subDomain.id, r.id));
    await setHostRunning(s, tx, tenantId, r.id, true);
  }
}

/** Stops sub-domains: their hosts no longer answer. */
export async function stopSubDomains(s: Services, tx: Db, tenantId: string, rows: Row[], now: Date): Promise<void> {
  for (const r of rows) {
    await tx.update(subDomain).set({ stopTime: now }).where(eq(subDomain.id, r.id));
    await setHostRunning(s, tx, tenantId, r.id, false);
  }
}

/** Tells the client of a decision by SMS (through the outbox, in the decision's transaction). */
export async function notifyClient(
  s: Services,
  tx: Db,
  auth: AuthContext,
  row: SubDomainRow,
  pass: boolean,
  opinion: string | null,
) {
  const [c] = await tx
    .select({ phone: clientInfo.operatorTel })
    .from(clientInfo)
    .where(and(eq(clientInfo.tenantId, auth.tenantId), eq(clientInfo.id, row.clientId)));
  if (!c?.phone) return;
  const [t] = await tx
    .select({ name: tenant.tenantName })
    .from(tenant)
    .where(and(eq(tenant.tenantId, auth.tenantId), eq(tenant.isDeleted, 0)));
  const text = fill(pass ? texts.smsApproved : texts.smsRejected, {
    tenant: t?.name ?? '',
    domain: row.fullDomain,
    opinion: opinion ?? '',
  }).zh;
  await enqueueSms(s, tx, {
    tenantId: auth.tenantId,
    phone: c.phone,
    templateCode: pass ? 'subdomain_approved' : 'subdomain_rejected',
    params: pass ? { domain: row.fullDomain } : { domain: row.fullDomain, opinion: opinion ?? '' },
    text,
    refType: REFER,
    refId: row.id,
    userId: auth.userId,
  });
}

/** An approved application of a client made for the purpose (the generated suites run on it). Answers its id. */
export async function fixtureSubDomain(s: Services, tx: Db, auth: AuthContext): Promise<string> {
  const now = new Date();
  const { id: clientId, account } = await fixtureApprovedClient(tx, auth.tenantId, now);
  const id = newId();
  const name = `fx${id.slice(-12)}`;
  const fullDomain = `${name}.${(await baseDomainOf(tx, auth.tenantId)) ?? 'fixture.invalid'}`;
  await tx.insert(subDomain).values({
    id,
    tenantId: auth.tenantId,
    clientId,
    appClientAccount: account,
    subDomain: name,
    fullDomain,
    regionCode: '110101',
    bindLimit: 10,
    status: SUBDOMAIN_STATUS.approved,
    createTime: now,
    updateTime: now,
  });
  await claimHost(s, tx, auth.tenantId, id, fullDomain);
  return id;
}
