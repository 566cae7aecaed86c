import { and, asc, desc, eq, gte, ilike, lte, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from './errors.ts';

export type Filter = { column: PgColumn; op: 'eq' | 'like' };
export type ListRules = {
  /** Query fields that filter, and how. Anything else in the query is a 400. */
  filters: Record<string, Filter>;
  /** Fields `ascs` / `descs` may name. */
  sorts: Record<string, PgColumn>;
  /** Applied when the caller names no sort. */
  defaultSort?: SQL[];
  /** Column bounded by createTime_dategt / createTime_datelt. */
  createTime?: PgColumn;
};

export type ListQuery = { current: number; size: number; where: SQL | undefined; orderBy: SQL[] };
export type Page<T> = { records: T[]; total: number; size: number; current: number; pages: number };

const RESERVED = new Set(['current', 'size', 'ascs', 'descs', 'createTime_dategt', 'createTime_datelt']);
export const MAX_PAGE_SIZE = 1000;

const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Accepts ISO 8601 or `YYYY-MM-DD HH:mm:ss` (taken in the server's zone offset, default +08:00). */
export function parseDateInput(value: string, offset = '+08:00'): Date | null {
  const local = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?$/.exec(value.trim());
  const d = local ? new Date(`${local[1]}T${local[2] ?? '00:00:00'}${offset}`) : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * Turns a list request's query into paging, a WHERE and an ORDER BY, from allowlists only:
 * an unknown filter or sort field is a 400 naming it, never a silent ignore, never SQL text.
 */
export function parseListQuery(query: Record<string, unknown>, rules: ListRules, extra: string[] = []): ListQuery {
  const str = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : v == null ? '' : String(v));
  const int = (name: string, v: unknown, dflt: number) => {
    const s = str(v);
    if (s === '') return dflt;
    if (!/^\d{1,9}$/.test(s) || Number(s) < 1)
      throw badRequest({ zh: `参数 ${name} 必须是正整数`, en: `${name} must be a positive integer` }, [
        { field: name, message: 'positive integer' },
      ]);
    return Number(s);
  };
  const current = int('current', query.current, 1);
  const size = Math.min(int('size', query.size, 10), MAX_PAGE_SIZE);
  const conds: SQL[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED.has(key) || extra.includes(key)) continue;
    const f = rules.filters[key];
    if (!f)
      throw badRequest({ zh: `不支持的查询字段：${key}`, en: `Unknown filter field: ${key}` }, [
        { field: key, message: 'unknown filter' },
      ]);
    const v = str(raw).trim();
    if (v === '') continue;
    if (v.length > 200) throw badRequest({ zh: `查询值过长：${key}`, en: `Filter value too long: ${key}` });
    conds.push(f.op === 'like' ? ilike(f.column, `%${escapeLike(v)}%`) : eq(f.column, v));
  }
  for (const [key, op] of [
    ['createTime_dategt', gte],
    ['createTime_datelt', lte],
  ] as const) {
    const v = str(query[key]).trim();
    if (!v) continue;
    if (!rules.createTime) throw badRequest({ zh: `不支持的查询字段：${key}`, en: `Unknown filter field: ${key}` });
    const d = parseDateInput(v);
    if (!d) throw badRequest({ zh: `日期格式错误：${key}`, en: `Bad date: ${key}` }, [{ field: key, message: 'date' }]);
    conds.push(op(rules.createTime, d));
  }
  const orderBy: SQL[] = [];
  for (const [param, dir] of [
    ['ascs', asc],
    ['descs', desc],
  ] as const) {
    const list = str(query[param])
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    for (const name of list) {
      const col = rules.sorts[name];
      if (!col)
        throw badRequest({ zh: `不支持的排序字段：${name}`, en: `Unknown sort field: ${name}` }, [
          { field: param, message: 'unknown sort' },
        ]);
      orderBy.push(dir(col));
    }
  }
  return {
    current,
    size,
    where: conds.length ? and(...conds) : undefined,
    orderBy: orderBy.length ? orderBy : (rules.defaultSort ?? []),
  };
}

export function toPage<T>(records: T[], total: number, q: { current: number; size: number }): Page<T> {
  return { records, total, size: q.size, current: q.current, pages: Math.ceil(total / q.size) };
}
