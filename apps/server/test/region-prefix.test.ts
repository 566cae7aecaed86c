// The region prefix condition (platform/paging.ts `regionPrefix`, docs/server.md "Region prefix"): an index range with
// no per-row check must keep exactly the rows `starts_with` keeps, for every prefix a region admin or a filter can
// have — codes ending in 9 (the range's bound then ends in ':'), towns and villages below a district, and codes that
// only share the first digits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createTestApp, type TestApp } from './harness.ts';
import { regionPrefix } from '../src/platform/paging.ts';
import { rowsOf } from '../src/db/rows.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const codes = [
  '11',
  '1101',
  '110101',
  '110101001',
  '110101001001',
  '110102',
  '1109',
  '110901',
  '119',
  '11019',
  '110199',
  '110199001',
  '1102',
  '12',
  '1',
  '2',
  '9',
  '99',
  '990101',
  '110100',
  '11010',
  '1101010',
  '19',
  '190',
];

const kept = async (where: (col: ReturnType<typeof sql>) => ReturnType<typeof sql>) => {
  const col = sql`c`;
  const rows = await rowsOf<{ c: string }>(
    t.services.db,
    sql`select c from unnest(${sql.raw(`array[${codes.map((c) => `'${c}'`).join(',')}]::varchar[]`)}) as c where ${where(col)} order by c`,
  );
  return rows.map((r) => r.c);
};

describe('regionPrefix', () => {
  it('keeps exactly the codes starts_with keeps, for every prefix', async () => {
    for (const prefix of [
      '11',
      '1101',
      '110101',
      '110101001',
      '1109',
      '119',
      '11019',
      '110199',
      '1',
      '9',
      '99',
      '19',
    ]) {
      const expected = await kept((c) => sql`starts_with(${c}, ${prefix})`);
      expect(await kept((c) => regionPrefix(c, prefix)), prefix).toEqual(expected);
      expect(expected.length, prefix).toBeGreaterThan(0);
    }
  });

  it('is a range of two leakproof comparisons for digits, starts_with for anything else', () => {
    const text = (s: ReturnType<typeof regionPrefix>) => new PgDialect().sqlToQuery(s);
    expect(text(regionPrefix(sql`c`, '110109'))).toEqual({
      sql: '(c ~>=~ $1 and c ~<~ $2)',
      params: ['110109', '11010:'],
      typings: ['none', 'none'],
    });
    expect(text(regionPrefix(sql`c`, '11%')).sql).toBe('starts_with(c, $1)');
  });
});
