import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { LOG_PAGE_LIMIT } from '@atrium/contract';
import type { Db } from '../../db/client.ts';
import { auditLog, errorLog, user } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { parseListQuery, valueOfKind, type ListRules } from '../../platform/paging.ts';
import { logTexts as texts } from './messages.ts';

/**
 * The log viewers' reads (docs/server.md "Log viewers"): the audit rows every write leaves and the console's uploaded error
 * log, in the caller's tenant (row-level security and an explicit tenant condition), newest first. A filtered list
 * counts and pages at most LOG_PAGE_LIMIT rows, so a page stays an index range scan at millions of rows.
 */

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

const auditRules: ListRules = {
  filters: {
    entity: { column: auditLog.entity, op: 'eq' },
    action: { column: auditLog.action, op: 'eq' },
    entityId: { column: auditLog.entityId, op: 'eq', kind: 'id' },
    userId: { column: auditLog.userId, op: 'eq', kind: 'id' },
  },
  sorts: {},
  createTime: auditLog.createTime,
  defaultSort: [desc(auditLog.createTime), desc(auditLog.id)],
};

const errorRules: ListRules = {
  filters: {
    type: { column: errorLog.type, op: 'eq' },
    url: { column: errorLog.url, op: 'like' },
    userId: { column: errorLog.userId, op: 'eq', kind: 'id' },
  },
  sorts: {},
  createTime: errorLog.createTime,
  defaultSort: [desc(errorLog.createTime), desc(errorLog.id)],
};

type Query = Record<string, unknown>;
type Who = { userId: string | null; account: string | null; userName: string | null };

/**
 * `account`: the users of the tenant with that account (exact, as the user list shows it), looked up first so the
 * planner sees their ids and reads the user index (a subquery let it walk the entity index instead: docs/server.md
 * "Log viewers"). No such user: a condition nothing meets.
 */
async function byAccount(
  tx: Db,
  query: Query,
  tenantId: string,
  column: typeof auditLog.userId | typeof errorLog.userId,
): Promise<SQL | undefined> {
  const raw = query.account;
  const v = (Array.isArray(raw) ? String(raw[0] ?? '') : raw == null ? '' : String(raw)).trim();
  if (!v) return undefined;
  if (v.length > 45 || valueOfKind(v, 'text') === undefined)
    throw badRequest(texts.badAccount, [{ field: 'account', message: 'bad account' }]);
  const ids = await tx
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.tenantId, tenantId), eq(user.account, v)));
  if (!ids.length) return sql`false`;
  return ids.length === 1
    ? eq(column, ids[0].id)
    : inArray(
        column,
        ids.map((u) => u.id),
      );
}

/** The page's paging checked against the limit: a page past it is a 400 asking for narrower filters. */
function checkDepth(current: number, size: number) {
  if ((current - 1) * size >= LOG_PAGE_LIMIT)
    throw badRequest(texts.tooDeep, [{ field: 'current', message: 'past the paged rows' }]);
}

/** The writers' accounts and names, for a page's rows. */
async function withWho<T extends { userId: string | null }>(tx: Db, tenantId: string, rows: T[]) {
  const ids = [...new Set(rows.map((r) => r.userId).filter((x): x is string => !!x))];
  const found = ids.length
    ? await tx
        .select({ id: user.id, account: user.account, realName: user.realName })
        .from(user)
        .where(and(eq(user.tenantId, tenantId), inArray(user.id, ids)))
    : [];
  const byId = new Map(found.map((u) => [String(u.id), u]));
  return rows.map((r) => {
    const u = r.userId ? byId.get(String(r.userId)) : undefined;
    return {
      ...r,
      userId: r.userId == null ? null : String(r.userId),
      account: u?.account ?? null,
      userName: u?.realName ?? null,
    } as T & Who;
  });
}

/** At most LOG_PAGE_LIMIT + 1 matching rows counted: whether more match than the list pages. */
async function cappedCount(tx: Db, table: typeof auditLog | typeof errorLog, where: SQL | undefined) {
  const sub = tx
    .select({ one: sql`1`.as('one') })
    .from(table)
    .where(where)
    .limit(LOG_PAGE_LIMIT + 1)
    .as('m');
  const [{ n }] = await tx.select({ n: count() }).from(sub);
  const total = Math.min(Number(n), LOG_PAGE_LIMIT);
  return { total, capped: Number(n) > LOG_PAGE_LIMIT };
}

const auditColumns = {
  id: auditLog.id,
  entity: auditLog.entity,
  action: auditLog.action,
  entityId: auditLog.entityId,
  userId: auditLog.userId,
  requestId: auditLog.requestId,
  createTime: auditLog.createTime,
};

export async function auditPage(tx: Db, tenantId: string, query: Query) {
  const q = parseListQuery(query, auditRules, ['account']);
  checkDepth(q.current, q.size);
  const where = and(eq(auditLog.tenantId, tenantId), q.where, await byAccount(tx, query, tenantId, auditLog.userId));
  const rows = await tx
    .select(auditColumns)
    .from(auditLog)
    .where(where)
    .orderBy(...q.orderBy)
    .limit(q.size)
    .offset((q.current - 1) * q.size);
  const { total, capped } = await cappedCount(tx, auditLog, where);
  const records = (await withWho(tx, tenantId, rows)).map((r) => ({
    ...r,
    id: String(r.id),
    entityId: r.entityId == null ? null : String(r.entityId),
    createTime: iso(r.createTime)!,
  }));
  return { records, total, size: q.size, current: q.current, pages: Math.ceil(total / q.size), capped };
}

const parse = (text: string | null): unknown => {
  if (text == null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields a write changed: every field of before and after (in their order) whose value differs; an insert lists
 * its set fields, a delete its removed ones. Values that are not records compare as one field, `value`.
 */
export function changesOf(before: unknown, after: unknown) {
  if (!isObject(before) && !isObject(after))
    return same(before, after) ? [] : [{ field: 'value', before: before ?? null, after: after ?? null }];
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter((f) => !same(b[f], a[f]))
    .map((field) => ({ field, before: b[field] ?? null, after: a[field] ?? null }));
}

export async function auditDetail(tx: Db, tenantId: string, id: string) {
  const [row] = await tx
    .select({ ...auditColumns, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.id, id)));
  if (!row) throw new AppError(404, texts.auditMissing);
  const [r] = await withWho(tx, tenantId, [row]);
  const before = parse(r.before);
  const after = parse(r.after);
  return {
    ...r,
    id: String(r.id),
    entityId: r.entityId == null ? null : String(r.entityId),
    createTime: iso(r.createTime)!,
    before,
    after,
    changes: changesOf(before, after),
  };
}

const errorColumns = {
  id: errorLog.id,
  type: errorLog.type,
  url: errorLog.url,
  message: errorLog.message,
  clientTime: errorLog.clientTime,
  userId: errorLog.userId,
  createTime: errorLog.createTime,
};

export async function errorPage(tx: Db, tenantId: string, query: Query) {
  const q = parseListQuery(query, errorRules, ['account']);
  checkDepth(q.current, q.size);
  const where = and(eq(errorLog.tenantId, tenantId), q.where, await byAccount(tx, query, tenantId, errorLog.userId));
  const rows = await tx
    .select(errorColumns)
    .from(errorLog)
    .where(where)
    .orderBy(...q.orderBy)
    .limit(q.size)
    .offset((q.current - 1) * q.size);
  const { total, capped } = await cappedCount(tx, errorLog, where);
  const records = (await withWho(tx, tenantId, rows)).map((r) => ({
    ...r,
    id: String(r.id),
    createTime: iso(r.createTime)!,
  }));
  return { records, total, size: q.size, current: q.current, pages: Math.ceil(total / q.size), capped };
}

export async function errorDetail(tx: Db, tenantId: string, id: string) {
  const [row] = await tx
    .select({ ...errorColumns, stack: errorLog.stack, userAgent: errorLog.userAgent, requestId: errorLog.requestId })
    .from(errorLog)
    .where(and(eq(errorLog.tenantId, tenantId), eq(errorLog.id, id)));
  if (!row) throw new AppError(404, texts.errorMissing);
  const [r] = await withWho(tx, tenantId, [row]);
  return { ...r, id: String(r.id), createTime: iso(r.createTime)! };
}
