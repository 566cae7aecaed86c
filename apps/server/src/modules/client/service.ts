import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { and, count, desc, eq, gte, isNull, ne, sql } from 'drizzle-orm';
import { fill, type Msg } from '@atrium/contract';
import { CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { role, tenant, user, userRole } from '../../db/schema/index.ts';
import { dataScopeSql } from '../../platform/access.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { enqueueSms } from '../outbox/index.ts';
import { clientTexts as texts } from './messages.ts';
import { clientCode, clientInfo } from './table.ts';

export type ClientRow = typeof clientInfo.$inferSelect;

/**
 * A resource's data scope read on the clients table: which clients a caller may name as the owner of a record of
 * resource `code` (a sub-domain applied for, a device registered). Undefined = no restriction.
 */
export const clientScopeSql = (s: Services, auth: AuthContext, code: string) =>
  dataScopeSql(s, auth, {
    code,
    owner: clientInfo.createUser,
    dept: clientInfo.createDept,
    region: clientInfo.regionCode,
    client: clientInfo.id,
    columns: {
      clientId: { column: clientInfo.id, kind: 'id' },
      regionCode: { column: clientInfo.regionCode, kind: 'text' },
      appClientAccount: { column: clientInfo.appClientAccount, kind: 'text' },
    },
  });

/**
 * Public calls name their tenant by the `Tenant-Id` header, else by the host they were sent to: a tenant's domain or
 * a running sub-domain's (docs/clients.md).
 */
export async function publicTenant(
  s: Services,
  req: FastifyRequest,
): Promise<{ tenantId: string; tenantName: string }> {
  const raw = req.headers['tenant-id'];
  const header = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  const host = (req.headers.host ?? '').split(':')[0].toLowerCase();
  const bySubDomain = !header && host ? ((await s.registry.hostTenant?.(host)) ?? null) : null;
  const where = header
    ? /^\d{6,12}$/.test(header)
      ? eq(tenant.tenantId, header)
      : undefined
    : bySubDomain
      ? eq(tenant.tenantId, bySubDomain)
      : host
        ? eq(tenant.domain, host)
        : undefined;
  if (!where) throw badRequest(texts.noTenant);
  const [t] = await s.db
    .select({ tenantId: tenant.tenantId, tenantName: tenant.tenantName, expireTime: tenant.expireTime })
    .from(tenant)
    .where(and(where, eq(tenant.isDeleted, 0), eq(tenant.status, 1)));
  if (!t || (t.expireTime && t.expireTime.getTime() < s.now().getTime())) throw badRequest(texts.noTenant);
  return { tenantId: t.tenantId, tenantName: t.tenantName };
}

/**
 * Checks that refuse removing a client still in use (devices, a running sub-domain): each answers what uses it as a
 * message ("has devices"), or null. Registered by those modules at start.
 */
export type ClientUsage = (tx: Db, tenantId: string, clientId: string) => Promise<Msg | null>;
const usages: ClientUsage[] = [];
export function registerClientUsage(check: ClientUsage): void {
  usages.push(check);
}
export async function clientInUse(tx: Db, tenantId: string, clientId: string): Promise<Msg | null> {
  for (const check of usages) {
    const used = await check(tx, tenantId, clientId);
    if (used) return used;
  }
  return null;
}

/** The latest live client with this phone in the tenant. */
export async function clientByPhone(tx: Db, tenantId: string, phone: string): Promise<ClientRow | undefined> {
  const [row] = await tx
    .select()
    .from(clientInfo)
    .where(and(eq(clientInfo.tenantId, tenantId), eq(clientInfo.operatorTel, phone), eq(clientInfo.isDeleted, 0)))
    .orderBy(desc(clientInfo.id))
    .limit(1);
  return row;
}

// ——— SMS codes (docs/clients.md "Registration") ———

export const CODE_TTL_MS = 5 * 60_000;
export const TICKET_TTL_MS = 15 * 60_000;
export const RESEND_MS = 60_000;
export const PHONE_PER_DAY = 10;
export const IP_PER_HOUR = 30;
export const MAX_TRIES = 5;

const sha = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');
/** A code is hashed with its tenant, phone and type: a row copied elsewhere proves nothing. */
export const codeHash = (tenantId: string, phone: string, type: number, code: string) =>
  sha('code', tenantId, phone, String(type), code);
export const agentHash = (userAgent: string) => sha('agent', userAgent);
export const ticketHash = (ticket: string) => sha('ticket', ticket);

const tooMany = (m: Msg) => new AppError(429, m);

/**
 * Sends a code: the send limits (60 s between two to one phone, 10 a day per phone, 30 an hour per address), a
 * fresh 6-digit code stored hashed and bound to the user agent, and the SMS queued in the same transaction.
 */
export async function sendCode(
  s: Services,
  tx: Db,
  t: { tenantId: string; tenantName: string },
  call: { phone: string; type: number; userAgent: string; ip: string; lang: 'zh' | 'en' },
): Promise<void> {
  const now = s.now();
  const { tenantId } = t;
  const [last] = await tx
    .select({ createTime: clientCode.createTime })
    .from(clientCode)
    .where(and(eq(clientCode.tenantId, tenantId), eq(clientCode.phone, call.phone)))
    .orderBy(desc(clientCode.id))
    .limit(1);
  const since = last ? now.getTime() - last.createTime.getTime() : Infinity;
  if (since < RESEND_MS) throw tooMany(fill(texts.tooSoon, { seconds: Math.ceil((RESEND_MS - since) / 1000) }));
  const [{ n: today }] = await tx
    .select({ n: count() })
    .from(clientCode)
    .where(
      and(
        eq(clientCode.tenantId, tenantId),
        eq(clientCode.phone, call.phone),
        gte(clientCode.createTime, new Date(now.getTime() - 24 * 3600_000)),
      ),
    );
  if (today >= PHONE_PER_DAY) throw tooMany(texts.dailyLimit);
  const [{ n: fromIp }] = await tx
    .select({ n: count() })
    .from(clientCode)
    .where(
      and(
        eq(clientCode.tenantId, tenantId),
        eq(clientCode.ip, call.ip),
        gte(clientCode.createTime, new Date(now.getTime() - 3600_000)),
      ),
    );
  if (fromIp >= IP_PER_HOUR) throw tooMany(texts.ipLimit);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = newId();
  await tx.insert(clientCode).values({
    id,
    tenantId,
    phone: call.phone,
    type: call.type,
    codeHash: codeHash(tenantId, call.phone, call.type, code),
    agentHash: agentHash(call.userAgent),
    ip: call.ip,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    createTime: now,
    updateTime: now,
  });
  await enqueueSms(tx, {
    tenantId,
    phone: call.phone,
    templateCode: 'verify',
    params: { code },
    text: fill(texts.smsCode, { tenant: t.tenantName, code })[call.lang],
    refType: 'client_code',
    refId: id,
  });
}

/**
 * Checks a code against the phone's latest one of that type: expired, used, burned (five wrong tries) or sent for
 * another user agent → refused; right → a one-use ticket for 15 minutes (answered once, stored hashed).
 */
export async function checkCode(
  s: Services,
  tx: Db,
  tenantId: string,
  call: { phone: string; type: number; userAgent: string; code: string },
): Promise<{ ticket: string } | { wrong: true; burned: boolean }> {
  const now = s.now();
  const [row] = await tx
    .select()
    .from(clientCode)
    .where(and(eq(clientCode.tenantId, tenantId), eq(clientCode.phone, call.phone), eq(clientCode.type, call.type)))
    .orderBy(desc(clientCode.id))
    .limit(1)
    .for('update');
  if (!row || row.usedAt || row.expiresAt.getTime() < now.getTime() || row.tries >= MAX_TRIES)
    throw badRequest(texts.codeGone);
  if (row.agentHash !== agentHash(call.userAgent)) throw badRequest(texts.codeGone);
  if (row.codeHash !== codeHash(tenantId, call.phone, call.type, call.code)) {
    const tries = row.tries + 1;
    await tx
      .update(clientCode)
      .set({ tries, usedAt: tries >= MAX_TRIES ? now : null, updateTime: now })
      .where(eq(clientCode.id, row.id));
    return { wrong: true, burned: tries >= MAX_TRIES };
  }
  const ticket = randomBytes(24).toString('base64url');
  await tx
    .update(clientCode)
    .set({
      usedAt: now,
      ticketHash: ticketHash(ticket),
      ticketExpiresAt: new Date(now.getTime() + TICKET_TTL_MS),
      updateTime: now,
    })
    .where(eq(clientCode.id, row.id));
  return { ticket };
}

/** Spends a ticket of this phone and type, once; anything else is refused with the same message. */
export async function spendTicket(s: Services, tx: Db, tenantId: string, phone: string, type: number, ticket: string) {
  const now = s.now();
  const spent = await tx
    .update(clientCode)
    .set({ ticketUsedAt: now, updateTime: now })
    .where(
      and(
        eq(clientCode.tenantId, tenantId),
        eq(clientCode.ticketHash, ticketHash(ticket)),
        eq(clientCode.phone, phone),
        eq(clientCode.type, type),
        isNull(clientCode.ticketUsedAt),
        gte(clientCode.ticketExpiresAt, now),
      ),
    )
    .returning({ id: clientCode.id });
  if (!spent.length) throw badRequest(texts.ticketBad);
}

// ——— Approval effect: the client's account (docs/clients.md "Approval") ———

/**
 * A decision on a client's registration, inside the decision's transaction. Approved: the account is made (userType
 * 2, the tenant's supplier-admin role, the client's region and id, the password chosen at registration — or none
 * usable until the client sets one through "forgot password"); the client is told by SMS. Rejected: told why.
 */
export async function decideClient(
  s: Services,
  tx: Db,
  auth: AuthContext,
  clientId: string,
  pass: boolean,
  opinion: string | null,
): Promise<void> {
  const now = s.now();
  const [c] = await tx
    .select()
    .from(clientInfo)
    .where(and(eq(clientInfo.tenantId, auth.tenantId), eq(clientInfo.id, clientId), eq(clientInfo.isDeleted, 0)))
    .for('update');
  if (!c) throw badRequest(texts.notPending);
  if (c.status !== CLIENT_STATUS.pending) throw new AppError(409, texts.notPending);
  const [t] = await tx.select({ name: tenant.tenantName }).from(tenant).where(eq(tenant.tenantId, auth.tenantId));
  const tenantName = t?.name ?? '';
  if (!pass) {
    await tx
      .update(clientInfo)
      .set({ status: CLIENT_STATUS.rejected, updateTime: now, updateUser: auth.userId, version: sql`version + 1` })
      .where(eq(clientInfo.id, c.id));
    await enqueueSms(tx, {
      tenantId: auth.tenantId,
      phone: c.operatorTel,
      templateCode: 'client_rejected',
      params: { opinion: opinion ?? '' },
      text: fill(texts.smsRejected, { tenant: tenantName, opinion: opinion ?? '' }).zh,
      refType: 'client',
      refId: c.id,
      userId: auth.userId,
    });
    return;
  }
  const [supplier] = await tx
    .select({ id: role.id })
    .from(role)
    .where(and(eq(role.tenantId, auth.tenantId), eq(role.roleAlias, 'supplier_admin'), eq(role.isDeleted, 0)))
    .limit(1);
  if (!supplier) throw badRequest(texts.noRole);
  const account = c.appClientAccount || c.operatorTel;
  const [taken] = await tx
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.tenantId, auth.tenantId), eq(user.account, account), eq(user.isDeleted, 0)))
    .limit(1);
  if (taken) throw new AppError(409, fill(texts.accountTaken, { account }));
  const userId = newId();
  // No usable password until the client sets one: a random hash-shaped value no login can match.
  const password = c.pendingPassword ?? `unset$${randomBytes(24).toString('base64url')}`;
  await tx.insert(user).values({
    id: userId,
    tenantId: auth.tenantId,
    account,
    password,
    name: c.contactName.slice(0, 20),
    realName: c.contactName.slice(0, 10),
    phone: c.operatorTel,
    email: c.email,
    userType: 2,
    regionCode: c.regionCode,
    clientInfoId: c.id,
    status: 1,
    createUser: auth.userId,
    createTime: now,
    updateTime: now,
  });
  await tx.insert(userRole).values({ userId, roleId: supplier.id, tenantId: auth.tenantId });
  await tx
    .update(clientInfo)
    .set({
      status: CLIENT_STATUS.approved,
      appClientAccount: account,
      accountUserId: userId,
      pendingPassword: null,
      updateTime: now,
      updateUser: auth.userId,
      version: sql`version + 1`,
    })
    .where(eq(clientInfo.id, c.id));
  await enqueueSms(tx, {
    tenantId: auth.tenantId,
    phone: c.operatorTel,
    templateCode: 'client_approved',
    params: { account },
    text: fill(c.pendingPassword ? texts.smsApproved : texts.smsApprovedSetPassword, { tenant: tenantName, account })
      .zh,
    refType: 'client',
    refId: c.id,
    userId: auth.userId,
  });
}

/** The account of a client follows it: disabled with it, enabled with it, removed with it. */
export async function setAccountStatus(tx: Db, tenantId: string, c: ClientRow, status: 0 | 1, now: Date) {
  if (!c.accountUserId) return;
  await tx
    .update(user)
    .set({ status, updateTime: now, version: sql`${user.version} + 1` })
    .where(and(eq(user.tenantId, tenantId), eq(user.id, c.accountUserId), ne(user.status, status)));
}
