import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { and, asc, count, desc, eq, gte, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { fill, passwordPolicyError, validateCreditCode, validateIdCard, type Msg } from '@atrium/contract';
import { clientinfo as def, CLIENT_STATUS } from '@atrium/contract/resources/customer/clientinfo';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { namesByIds } from '../../db/names.ts';
import { role, tenant, user, userRole } from '../../db/schema/index.ts';
import { dataScopeSql } from '../../platform/access.ts';
import { writeAudit, type Row } from '../../platform/crud.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { approvalTable } from '../approval/index.ts';
import { decideApproval, openApproval, withdrawPending } from '../approval/index.ts';
import { BLACK_TYPE, isBlocked } from '../blacklist/index.ts';
import { enqueueEmail, enqueueSms } from '../outbox/index.ts';
import { outbox } from '../outbox/index.ts';
import { liveByCodes } from '../region/index.ts';
import { clientTexts as texts } from './messages.ts';
import { clientCode, clientInfo, clientTrack } from './table.ts';

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
declare module '../../platform/services.ts' {
  interface Registry {
    /** The app's client usages (docs/server.md "Registries"). */
    clientUsages?: ClientUsage[];
  }
}
export function registerClientUsage(s: Services, check: ClientUsage): void {
  (s.registry.clientUsages ??= []).push(check);
}
export async function clientInUse(s: Services, tx: Db, tenantId: string, clientId: string): Promise<Msg | null> {
  for (const check of s.registry.clientUsages ?? []) {
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
  await enqueueSms(s, tx, {
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
    await enqueueSms(s, tx, {
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
  await enqueueSms(s, tx, {
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

// ——— The form's rules (staff saves and the public registration) ———

const fieldError = (name: string, m: Msg) => badRequest(m, [{ field: name, message: m }]);

/**
 * The form's checks beyond the definition's: a valid credit code, a valid ID card when one is given, a live region.
 * `existing` fills what an update leaves out. Answers the credit code in its stored form (trimmed, upper case).
 */
export async function checkClientForm(tx: Db, input: Record<string, unknown>, existing: Row | null) {
  const value = (k: string) => (input[k] !== undefined ? input[k] : existing?.[k]);
  const credit = validateCreditCode(value('creditCode') as string);
  if (credit) throw fieldError('creditCode', credit);
  const idCard = value('contactIdCard') as string | null | undefined;
  if (idCard) {
    const bad = validateIdCard(idCard);
    if (bad) throw fieldError('contactIdCard', bad);
  }
  const region = String(value('regionCode') ?? '');
  if (!(await liveByCodes(tx, [region])).has(region)) throw fieldError('regionCode', texts.regionUnknown);
  return { creditCode: String(value('creditCode')).trim().toUpperCase() };
}

/**
 * A blocked phone, email domain (or, on the public page, address) is refused with a message that does not name the
 * list. Before the transaction: the blacklist is a cached read (docs/system-api.md "Blacklist").
 */
export async function refuseBlocked(s: Services, tenantId: string, input: Record<string, unknown>, ip?: string) {
  const publicCall = ip !== undefined;
  if (await isBlocked(s, tenantId, BLACK_TYPE.phone, input.operatorTel as string, { publicCall }))
    throw fieldError('operatorTel', texts.cannotSend);
  if (await isBlocked(s, tenantId, BLACK_TYPE.emailDomain, input.email as string | null, { publicCall }))
    throw fieldError('email', texts.cannotSend);
  if (ip !== undefined && (await isBlocked(s, tenantId, BLACK_TYPE.ip, ip))) throw badRequest(texts.cannotSend);
}

/** The approval a client's registration opens. */
export function applicationOf(c: Row, userId: string | null) {
  return {
    referType: 'client',
    referId: String(c.id),
    title: String(c.clientName),
    applicantName: (c.contactName as string | null) ?? null,
    applicantPhone: (c.operatorTel as string | null) ?? null,
    regionCode: (c.regionCode as string | null) ?? null,
    userId,
  };
}

/**
 * Before clients are removed: none still in use (devices, a running sub-domain); their pending reviews withdrawn and
 * their accounts removed with them.
 */
export async function removeClients(s: Services, tx: Db, tenantId: string, rows: Row[]): Promise<void> {
  const now = s.now();
  for (const c of rows) {
    const used = await clientInUse(s, tx, tenantId, String(c.id));
    if (used)
      throw badRequest({ zh: fill(texts.inUse, { what: used.zh }).zh, en: fill(texts.inUse, { what: used.en }).en });
    await withdrawPending(tx, tenantId, 'client', String(c.id), now);
    if (c.accountUserId)
      await tx
        .update(user)
        .set({ isDeleted: 1, status: 0, updateTime: now, version: sql`${user.version} + 1` })
        .where(and(eq(user.tenantId, tenantId), eq(user.id, String(c.accountUserId))));
  }
}

// ——— Staff calls ———

/** Clients of the tenant within `scope` (the caller's data scope, read before the transaction), or 404; locked for a write. */
export async function visibleClients(tx: Db, tenantId: string, ids: string[], scope: SQL | undefined, lock = false) {
  const q = tx
    .select()
    .from(clientInfo)
    .where(and(eq(clientInfo.tenantId, tenantId), eq(clientInfo.isDeleted, 0), inArray(clientInfo.id, ids), scope));
  const rows = lock ? await q.for('update') : await q;
  if (rows.length !== new Set(ids).size) throw notFound();
  return rows;
}

/** Id, name and region of approved clients (a name's part, at most 200), for pickers (devices, sub-domains). */
export function clientOptions(tx: Db, tenantId: string, name: string | undefined, scope: SQL | undefined) {
  return tx
    .select({ id: clientInfo.id, clientName: clientInfo.clientName, regionCode: clientInfo.regionCode })
    .from(clientInfo)
    .where(
      and(
        eq(clientInfo.tenantId, tenantId),
        eq(clientInfo.isDeleted, 0),
        eq(clientInfo.status, CLIENT_STATUS.approved),
        name ? sql`${clientInfo.clientName} like ${`%${name.replace(/[\\%_]/g, '\\$&')}%`}` : undefined,
        scope,
      ),
    )
    .orderBy(asc(clientInfo.clientName))
    .limit(200);
}

/**
 * Decides the pending reviews of clients, as the approval screen does, with an audit row each; a client without a
 * pending review refuses them all (409).
 */
export async function decideReviews(
  s: Services,
  tx: Db,
  auth: AuthContext,
  clients: ClientRow[],
  decision: { pass: boolean; opinion: string | null; requestId: string },
): Promise<void> {
  const { pass, opinion, requestId } = decision;
  for (const c of clients) {
    const [a] = await tx
      .select()
      .from(approvalTable)
      .where(
        and(
          eq(approvalTable.tenantId, auth.tenantId),
          eq(approvalTable.referType, 'client'),
          eq(approvalTable.referId, c.id),
          eq(approvalTable.status, 0),
          eq(approvalTable.isDeleted, 0),
        ),
      )
      .for('update');
    if (!a) throw new AppError(409, texts.notPending);
    await decideApproval(s, tx, auth, a, { pass, opinion, requestId }, s.now());
    const action = pass ? 'approve' : 'reject';
    await writeAudit(
      s,
      tx,
      auth,
      requestId,
      'approval',
      action,
      a.id,
      { status: 0 },
      { status: pass ? 1 : 2, opinion },
    );
  }
}

/**
 * A client account's new password (its hash given), set by staff: it must change it at its next login. A client
 * without an account, or a password the policy refuses, is refused. Answers the account's user id.
 */
export async function setClientPassword(
  tx: Db,
  tenantId: string,
  c: ClientRow,
  pwd: { plain: string; hash: string },
  now: Date,
): Promise<string> {
  if (!c.accountUserId) throw badRequest(texts.noAccount);
  const problem = passwordPolicyError(pwd.plain, String(c.appClientAccount ?? ''));
  if (problem) throw fieldError('pwd', problem);
  await tx
    .update(user)
    .set({ password: pwd.hash, mustChangePassword: 1, updateTime: now, version: sql`${user.version} + 1` })
    .where(and(eq(user.tenantId, tenantId), eq(user.id, c.accountUserId)));
  return c.accountUserId;
}

/** Who writes a follow-up record, and when. */
export type Tracker = { tenantId: string; userId: string; account: string; now: Date };

/**
 * One queued email per client, each with its own result in the outbox, and a follow-up record (type 3) for each. A
 * client without an email address refuses the whole send: nothing is queued.
 */
export async function queueClientEmails(
  s: Services,
  tx: Db,
  by: Tracker,
  clients: ClientRow[],
  mail: { subject: string; html: string; attachIds: string[] },
): Promise<{ clientId: string; outboxId: string }[]> {
  const out: { clientId: string; outboxId: string }[] = [];
  for (const c of clients) {
    if (!c.email) throw badRequest(fill(texts.noEmail, { name: c.clientName }));
    const outboxId = await enqueueEmail(s, tx, {
      tenantId: by.tenantId,
      to: c.email,
      subject: mail.subject,
      html: mail.html,
      attachIds: mail.attachIds,
      refType: 'client',
      refId: c.id,
      userId: by.userId,
    });
    await addTrack(tx, by, { clientId: c.id, trackType: 3, content: mail.subject, trackTime: by.now, outboxId });
    out.push({ clientId: c.id, outboxId });
  }
  return out;
}

/** A follow-up record of a client; answers its id. */
export async function addTrack(
  tx: Db,
  by: Tracker,
  t: {
    clientId: string;
    trackType: number;
    content: string;
    trackTime: Date;
    nextTrackTime?: Date | null;
    outboxId?: string;
  },
): Promise<string> {
  const id = newId();
  await tx.insert(clientTrack).values({
    id,
    tenantId: by.tenantId,
    clientId: t.clientId,
    trackType: t.trackType,
    content: t.content,
    trackTime: t.trackTime,
    ...(t.nextTrackTime !== undefined ? { nextTrackTime: t.nextTrackTime } : {}),
    ...(t.outboxId !== undefined ? { outboxId: t.outboxId } : {}),
    trackerName: by.account.slice(0, 50),
    createUser: by.userId,
    createTime: by.now,
    updateTime: by.now,
  });
  return id;
}

/** A client's follow-ups, newest first; an email's record carries its delivery state from the outbox. */
export function trackRecords(tx: Db, tenantId: string, clientId: string) {
  return tx
    .select({
      id: clientTrack.id,
      clientId: clientTrack.clientId,
      trackType: clientTrack.trackType,
      content: clientTrack.content,
      trackTime: clientTrack.trackTime,
      nextTrackTime: clientTrack.nextTrackTime,
      trackerName: clientTrack.trackerName,
      outboxId: clientTrack.outboxId,
      emailStatus: outbox.status,
      emailError: outbox.lastError,
    })
    .from(clientTrack)
    .leftJoin(outbox, and(eq(outbox.id, clientTrack.outboxId), eq(outbox.tenantId, tenantId)))
    .where(and(eq(clientTrack.tenantId, tenantId), eq(clientTrack.clientId, clientId), eq(clientTrack.isDeleted, 0)))
    .orderBy(desc(clientTrack.trackTime), desc(clientTrack.id));
}

// ——— The registration page's calls (docs/clients.md "Registration") ———

/** Whether a phone can register: free, registered (a client not rejected) — blocked is decided before. */
export async function phoneState(tx: Db, tenantId: string, phone: string): Promise<'registered' | 'free'> {
  const c = await clientByPhone(tx, tenantId, phone);
  return c && c.status !== CLIENT_STATUS.rejected ? 'registered' : 'free';
}

/** Whether a code of this type may be sent to a phone: to register, not registered; to reset, an approved account. */
export async function checkCodeRecipient(tx: Db, tenantId: string, phone: string, type: number): Promise<void> {
  const c = await clientByPhone(tx, tenantId, phone);
  if (type === 1 && c && c.status !== CLIENT_STATUS.rejected) throw badRequest(texts.alreadyRegistered);
  if (type === 2 && !(c?.accountUserId && c.status === CLIENT_STATUS.approved)) throw badRequest(texts.notRegistered);
}

/** The review state of a phone's latest application — no personal data. */
export async function reviewState(tx: Db, tenantId: string, phone: string) {
  const c = await clientByPhone(tx, tenantId, phone);
  if (!c) return 'none';
  if (c.status === CLIENT_STATUS.pending) return 'pending';
  return c.status === CLIENT_STATUS.rejected ? 'rejected' : 'approved';
}

/**
 * The registration: the ticket of a type-1 code spent, the form checked, the client written pending review (over a
 * rejected application of the same phone) with the chosen password's hash, and its approval opened.
 */
export async function registerClient(
  s: Services,
  tx: Db,
  tenantId: string,
  body: Record<string, unknown> & { ticket: string; operatorTel: string },
  passwordHash: string,
): Promise<void> {
  const now = s.now();
  await spendTicket(s, tx, tenantId, body.operatorTel, 1, body.ticket);
  const before = await clientByPhone(tx, tenantId, body.operatorTel);
  if (before && before.status !== CLIENT_STATUS.rejected) throw badRequest(texts.alreadyRegistered);
  const checked = await checkClientForm(tx, body, null);
  const values: Record<string, unknown> = {};
  for (const k of Object.keys(def.fields)) {
    const f = def.fields[k as keyof typeof def.fields];
    if (!('readOnly' in f && f.readOnly) && body[k] !== undefined) values[k] = body[k];
  }
  const row = {
    ...values,
    ...checked,
    status: CLIENT_STATUS.pending,
    source: 1,
    pendingPassword: passwordHash,
    updateTime: now,
  };
  let id: string;
  if (before) {
    id = before.id;
    await tx
      .update(clientInfo)
      // A row built by field name (checked by checkClientForm): drizzle cannot type a record keyed by string.
      .set({ ...row, version: sql`${clientInfo.version} + 1` } as never)
      .where(eq(clientInfo.id, before.id));
  } else {
    id = newId();
    // A row built by field name (checked by checkClientForm): drizzle cannot type a record keyed by string.
    await tx.insert(clientInfo).values({ ...row, id, tenantId, createTime: now } as never);
  }
  const [c] = await tx.select().from(clientInfo).where(eq(clientInfo.id, id));
  await openApproval(tx, tenantId, applicationOf(c as Row, null), now);
}

/**
 * "Forgot password": the ticket of a type-2 code spent, then the approved client's account takes the new password
 * (its hash given). Answers the account's user id.
 */
export async function resetClientPassword(
  s: Services,
  tx: Db,
  tenantId: string,
  call: { operatorTel: string; ticket: string; password: string; hash: string },
): Promise<string> {
  await spendTicket(s, tx, tenantId, call.operatorTel, 2, call.ticket);
  const c = await clientByPhone(tx, tenantId, call.operatorTel);
  if (!c?.accountUserId || c.status !== CLIENT_STATUS.approved) throw badRequest(texts.notRegistered);
  const problem = passwordPolicyError(call.password, String(c.appClientAccount ?? ''));
  if (problem) throw fieldError('password', problem);
  await tx
    .update(user)
    .set({ password: call.hash, mustChangePassword: 0, updateTime: s.now(), version: sql`${user.version} + 1` })
    .where(and(eq(user.tenantId, tenantId), eq(user.id, c.accountUserId)));
  return c.accountUserId;
}

/**
 * An approved client of region 110101 with an account of its own (a random phone), made for the generated suites'
 * fixtures of the records that need one (tracking, sub-domain applications). Answers its id and account.
 */
export async function fixtureApprovedClient(
  tx: Db,
  tenantId: string,
  now: Date,
): Promise<{ id: string; account: string }> {
  const id = newId();
  const phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await tx.insert(clientInfo).values({
    id,
    tenantId,
    clientName: 'fixture',
    clientType: 1,
    creditCode: '91110108MA01ABCD0B',
    contactName: 'fixture',
    operatorTel: phone,
    regionCode: '110101',
    appClientAccount: phone,
    status: CLIENT_STATUS.approved,
    createTime: now,
    updateTime: now,
  });
  return { id, account: phone };
}

/** Rows that name a client (`clientId`), each with the client's name beside it (`clientName`, null when gone). */
export async function withClientNames<T extends { clientId?: unknown }>(
  tx: Db,
  tenantId: string,
  rows: T[],
): Promise<(T & { clientName: string | null })[]> {
  const byId = await namesByIds(
    tx,
    tenantId,
    { id: clientInfo.id, name: clientInfo.clientName, tenantId: clientInfo.tenantId },
    rows.map((r) => r.clientId),
  );
  return rows.map((r) => ({ ...r, clientName: byId.get(String(r.clientId)) ?? null }));
}
