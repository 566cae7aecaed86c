import {
  and,
  asc,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import { isDay, msg } from '@atrium/contract';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from './errors.ts';

/** A list filter: how it compares, and what its values must look like (a bad value is a 400, never a query error). */
/** `prefix`: a region code and everything below it (GB/T 2260 codes are their ancestors' prefixes). */
export type Filter = { column: PgColumn; op: 'eq' | 'like' | 'in' | 'range' | 'prefix'; kind?: ValueKind };
/** `date`: an instant (a `datetime` field); `day`: a calendar day written YYYY-MM-DD (a `date` field). */
export type ValueKind = 'text' | 'int' | 'decimal' | 'id' | 'date' | 'day';
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
      throw badRequest(msg('positiveInt', { name }), [{ field: name, message: 'positive integer' }]);
    return Number(s);
  };
  const current = int('current', query.current, 1);
  const size = Math.min(int('size', query.size, 10), MAX_PAGE_SIZE);
  const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  const conds: SQL[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED.has(key) || extra.includes(key)) continue;
    const m = /^(.+)_(gte|lte|dategt|datelt|null)$/.exec(key);
    const name = m && has(rules.filters, m[1]) ? m[1] : key;
    const suffix = name === key ? null : m![2];
    if (!has(rules.filters, name) || (name === 'createTime' && suffix !== null)) throw unknownFilter(key);
    const f = rules.filters[name];
    const v = str(raw).trim();
    if (v === '') continue;
    if (v.length > 200) throw badRequest(msg('filterTooLong', { name: key }), [{ field: key, message: 'too long' }]);
    if (suffix === 'null') {
      if (v !== '1' && v !== '0') throw badValue(key);
      conds.push(v === '1' ? isNull(f.column) : isNotNull(f.column));
      continue;
    }
    if (suffix) {
      if (f.op !== 'range') throw unknownFilter(key);
      const value = valueOf(key, v, f.kind ?? 'text');
      conds.push(suffix === 'gte' || suffix === 'dategt' ? gte(f.column, value) : lte(f.column, value));
      continue;
    }
    if (f.op === 'like') conds.push(ilike(f.column, `%${escapeLike(v)}%`));
    else if (f.op === 'prefix') {
      // A leakproof index range, not LIKE: row-level security keeps LIKE out of the index (docs/server.md).
      if (!/^\d{1,12}$/.test(v)) throw badValue(key);
      conds.push(regionPrefix(f.column, v));
    } else if (f.op === 'in') {
      const values = v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      if (values.length > 100) throw badValue(key);
      conds.push(
        inArray(
          f.column,
          values.map((x) => valueOf(key, x, f.kind ?? 'text')),
        ),
      );
    } else conds.push(eq(f.column, valueOf(key, v, f.kind ?? 'text')));
  }
  for (const [key, op] of [
    ['createTime_dategt', gte],
    ['createTime_datelt', lte],
  ] as const) {
    const v = str(query[key]).trim();
    if (!v) continue;
    if (!rules.createTime) throw unknownFilter(key);
    conds.push(op(rules.createTime, valueOf(key, v, 'date')));
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
      if (!has(rules.sorts, name))
        throw badRequest(msg('unknownSort', { name }), [{ field: param, message: 'unknown sort' }]);
      orderBy.push(dir(rules.sorts[name]));
    }
  }
  return {
    current,
    size,
    where: conds.length ? and(...conds) : undefined,
    orderBy: orderBy.length ? orderBy : (rules.defaultSort ?? []),
  };
}

const unknownFilter = (key: string) =>
  badRequest(msg('unknownFilter', { name: key }), [{ field: key, message: 'unknown filter' }]);
const badValue = (key: string) =>
  badRequest(msg('notInList', { label: { zh: key, en: key } }), [{ field: key, message: 'bad value' }]);

/** A filter value checked against its kind, so the database never sees a value it would refuse. */
function valueOf(key: string, v: string, kind: ValueKind): string | number | Date {
  const value = valueOfKind(v, kind);
  if (value !== undefined) return value;
  if (kind === 'date' || kind === 'day')
    throw badRequest(msg('badDate', { name: key }), [{ field: key, message: 'date' }]);
  throw badValue(key);
}

/** A value read as its kind, or undefined when it is not one (the database would refuse it). */
export function valueOfKind(v: string, kind: ValueKind): string | number | Date | undefined {
  switch (kind) {
    case 'int':
      return /^-?\d{1,10}$/.test(v) && Math.abs(Number(v)) <= 2147483647 ? Number(v) : undefined;
    case 'decimal':
      return /^-?\d{1,15}(\.\d{1,10})?$/.test(v) ? Number(v) : undefined;
    case 'id':
      return /^\d{1,19}$/.test(v) && BigInt(v) <= 9223372036854775807n ? v : undefined;
    case 'day':
      return isDay(v) ? v : undefined;
    case 'date': {
      const d = parseDateInput(v);
      return d && d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 9999 ? d : undefined;
    }
    default:
      return v.includes('\u0000') ? undefined : v;
  }
}

export function toPage<T>(records: T[], total: number, q: { current: number; size: number }): Page<T> {
  return { records, total, size: q.size, current: q.current, pages: Math.ceil(total / q.size) };
}

/**
 * Rows whose `column` starts with `prefix` (a region and everything below it, GB/T 2260 codes), as an index range:
 * `prefix ≤ column < prefix with its last digit moved one on`, compared byte by byte (`~>=~` / `~<~`, the operators
 * of a `varchar_pattern_ops` index). For a prefix of digits it keeps exactly the rows `starts_with` keeps, but the
 * range is the whole condition — no per-row check after the index — and both operators are leakproof, so row-level
 * security lets it be the index condition (docs/server.md "Region prefix"). Anything but digits goes to
 * `starts_with`.
 */
export function regionPrefix(column: SQLWrapper, prefix: string): SQL {
  if (!/^\d{1,12}$/.test(prefix)) return sql`starts_with(${column}, ${prefix})`;
  const next = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return sql`(${column} ~>=~ ${prefix} and ${column} ~<~ ${next})`;
}
