// The fast statement renderer (src/db/render.ts) against drizzle's own: the same text and parameters for the chunks
// lists are made of, drizzle's answer for the rest. The server suite also runs with ATRIUM_CHECK_RENDER=1, so every
// list any test makes is rendered both ways.
import {
  and,
  asc,
  between,
  desc,
  eq,
  ilike,
  inArray,
  isNull,
  like,
  ne,
  not,
  notInArray,
  or,
  placeholder,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias, PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { renderFast, renderSql } from '../src/db/render.ts';
import { regionPrefix } from '../src/platform/paging.ts';
import { clientInfo, clientTrack } from '../src/modules/client/table.ts';

const dialect = new PgDialect();
/** drizzle's text and parameters (its typings are for other drivers; node-postgres takes text and values). */
const drizzle = (s: SQL) => {
  const r = dialect.sqlToQuery(s);
  return { sql: r.sql, params: r.params };
};
const t = clientInfo;
const when = new Date('2026-11-27T04:00:00.000Z');

const cases: Record<string, SQL | undefined> = {
  'tenant, live, region range': and(eq(t.tenantId, '100050'), eq(t.isDeleted, 0), regionPrefix(t.regionCode, '110101')),
  'a prefix that is not digits': regionPrefix(t.regionCode, "11'01"),
  'or, like, ilike, not': or(like(t.clientName, '%甲%'), not(ilike(t.email, '%@x.cn')), ne(t.status, 3)),
  'in and not in (lists of values)': and(inArray(t.status, [1, 2, 4]), notInArray(t.id, ['1', '2'])),
  'timestamps through their encoder': and(between(t.createTime, when, when), isNull(t.remark)),
  'numeric through its encoder': eq(t.lng, 116.4),
  'nested sql with raw text and bare values': sql`${t.id} in (select ${clientTrack.clientId} from ${clientTrack}
    where ${clientTrack.trackType} = ${3} and ${sql.raw('true')}) and ${null} is null`,
  'undefined parts are dropped': and(undefined, eq(t.tenantId, 'x'), undefined),
  'order by': sql.join([desc(t.createTime), asc(t.id)], sql`, `),
  'count over the table': sql`select count(*) from ${t} where ${eq(t.source, 1)}`,
};

describe('renderSql', () => {
  for (const [name, statement] of Object.entries(cases))
    it(`renders ${name} as drizzle does`, () => {
      const s = statement ?? sql`true`;
      expect(renderFast(s)).toEqual(drizzle(s));
      expect(renderSql(s)).toEqual(drizzle(s));
    });

  it('numbers parameters in order across nested statements', () => {
    const r = renderFast(sql`${eq(t.id, '7')} and ${or(eq(t.status, 1), eq(t.status, 2))} limit ${10}`);
    expect(r?.params).toEqual(['7', 1, 2, 10]);
    expect(r?.sql).toBe(
      '"client_info"."id" = $1 and ("client_info"."status" = $2 or "client_info"."status" = $3) limit $4',
    );
  });

  it('leaves what it does not know to drizzle, with drizzle’s answer', () => {
    const other = alias(clientInfo, 'other');
    for (const s of [
      sql`${eq(t.id, placeholder('id'))}`,
      sql`select ${sql.identifier('x')} from ${other} where ${eq(other.id, '1')}`,
      sql`${t.clientName} = ${'a'}`.inlineParams(),
      sql`${sql`x`.as('y')}`,
      eq(t.remark, sql`${{ json: true }}`),
    ]) {
      expect(renderFast(s)).toBeUndefined();
      expect(renderSql(s)).toEqual(drizzle(s));
    }
  });
});
