import { Column, Param, SQL, StringChunk, Table, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/** A statement's text with its numbered parameters ($1, $2…), as drizzle's PostgreSQL dialect renders it. */
export type Rendered = { sql: string; params: unknown[] };

const dialect = new PgDialect();

/** A column's or table's name as the dialect writes it (`"table"."column"`), worked out once per schema object. */
const names = new WeakMap<object, string>();
export function sqlName(entity: Column | Table): string {
  let known = names.get(entity);
  if (known === undefined) {
    known = dialect.sqlToQuery(sql`${entity}`).sql;
    names.set(entity, known);
  }
  return known;
}

/** A chunk this renderer leaves to drizzle: the whole statement is then rendered by drizzle. */
class Unsupported extends Error {}
const UNSUPPORTED = new Unsupported();

/**
 * Renders a statement the way `PgDialect.sqlToQuery` does — same text, same parameters in the same order — for the
 * chunks a list's filter, order and total are made of (text, nested statements, columns, tables, parameters with
 * their column's encoder, lists of values); anything else (placeholders, inlined parameters, views, subqueries,
 * aliases, names, object values) goes to drizzle's renderer whole. drizzle tells each chunk's kind by walking its
 * class chain, several kinds per chunk: ≈ 19 µs for a region admin's filter and order against ≈ 1.5 µs here,
 * measured apart (docs/server.md "Round trips"). Tests render every statement both ways and fail on any difference
 * (`ATRIUM_CHECK_RENDER`, set by the test setup; test/render.test.ts).
 */
export function renderSql(statement: SQL): Rendered {
  const fast = renderFast(statement);
  if (!fast) {
    const slow = dialect.sqlToQuery(statement);
    return { sql: slow.sql, params: slow.params };
  }
  if (CHECK) {
    const slow = dialect.sqlToQuery(statement);
    if (slow.sql !== fast.sql || !sameParams(slow.params, fast.params))
      throw new Error(`renderSql differs from drizzle:\n${fast.sql}\n${slow.sql}`);
  }
  return fast;
}

/** The statement rendered here, or undefined when it holds a chunk left to drizzle. */
export function renderFast(statement: SQL): Rendered | undefined {
  const out: string[] = [];
  const params: unknown[] = [];
  try {
    walk(statement, out, params);
  } catch (err) {
    if (err === UNSUPPORTED) return undefined;
    throw err;
  }
  return { sql: out.join(''), params };
}

const CHECK = process.env.ATRIUM_CHECK_RENDER === '1';

function sameParams(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]) || JSON.stringify(v) === JSON.stringify(b[i]));
}

function walk(node: SQL, out: string[], params: unknown[]): void {
  // drizzle declares SQL's `shouldInlineParams` (set by `sql.inlineParams()`) private.
  if ((node as unknown as { shouldInlineParams: boolean }).shouldInlineParams) throw UNSUPPORTED;
  for (const chunk of node.queryChunks) chunkOf(chunk, out, params);
}

function chunkOf(chunk: unknown, out: string[], params: unknown[]): void {
  if (chunk instanceof StringChunk) {
    const v = chunk.value;
    out.push(v.length === 1 ? v[0] : v.join(''));
  } else if (chunk instanceof SQL) {
    walk(chunk, out, params);
  } else if (chunk instanceof Column || chunk instanceof Table) {
    out.push(sqlName(chunk));
  } else if (chunk instanceof Param) {
    if (chunk.value !== null && typeof chunk.value === 'object' && !(chunk.value instanceof Date)) throw UNSUPPORTED;
    const mapped = chunk.value === null ? null : chunk.encoder.mapToDriverValue(chunk.value);
    if (mapped !== null && typeof mapped === 'object' && !(mapped instanceof Date)) throw UNSUPPORTED;
    params.push(mapped);
    out.push(`$${params.length}`);
  } else if (chunk === undefined) {
    // nothing: drizzle writes an undefined chunk as no text
  } else if (Array.isArray(chunk)) {
    out.push('(');
    for (let i = 0; i < chunk.length; i++) {
      if (i) out.push(', ');
      chunkOf(chunk[i], out, params);
    }
    out.push(')');
  } else if (chunk === null || (typeof chunk !== 'object' && typeof chunk !== 'function')) {
    // a bare value: a parameter as it is
    params.push(chunk);
    out.push(`$${params.length}`);
  } else throw UNSUPPORTED;
}
