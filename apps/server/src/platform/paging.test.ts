import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { desc } from 'drizzle-orm';
import { post } from '../db/schema/index.ts';
import { AppError } from './errors.ts';
import { parseDateInput, parseListQuery, toPage } from './paging.ts';

const rules = {
  filters: {
    postName: { column: post.postName, op: 'like' as const },
    category: { column: post.category, op: 'eq' as const },
  },
  sorts: { sort: post.sort, postCode: post.postCode },
  defaultSort: [desc(post.createTime)],
  createTime: post.createTime,
};
const dialect = new PgDialect();
const sqlOf = (q: ReturnType<typeof parseListQuery>) => (q.where ? dialect.sqlToQuery(q.where) : null);

describe('parseListQuery', () => {
  it('defaults to page 1 of 10 and caps the size at 1000', () => {
    expect(parseListQuery({}, rules)).toMatchObject({ current: 1, size: 10 });
    expect(parseListQuery({ current: '3', size: '5000' }, rules)).toMatchObject({ current: 3, size: 1000 });
  });

  it('binds filter values as parameters, escaping LIKE wildcards', () => {
    const q = parseListQuery({ postName: "50%_off' or 1=1", category: '2' }, rules);
    const s = sqlOf(q)!;
    expect(s.sql).not.toContain('or 1=1');
    expect(s.params).toEqual(["%50\\%\\_off' or 1=1%", '2']);
  });

  it('refuses an unknown filter, an unknown sort and a bad page number with a 400 naming the field', () => {
    for (const [query, field] of [
      [{ password: 'x' }, 'password'],
      [{ ascs: 'password' }, 'ascs'],
      [{ current: '0' }, 'current'],
      [{ size: '-1' }, 'size'],
      [{ current: '1;drop' }, 'current'],
    ] as const) {
      try {
        parseListQuery(query as Record<string, unknown>, rules);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect((e as AppError).status).toBe(400);
        expect((e as AppError).fields?.[0].field).toBe(field);
      }
    }
  });

  it('bounds the creation time and understands both date formats', () => {
    const q = parseListQuery(
      { createTime_dategt: '2026-01-01 00:00:00', createTime_datelt: '2026-02-01T00:00:00Z' },
      rules,
    );
    expect(sqlOf(q)!.params).toHaveLength(2);
    expect(parseDateInput('2026-01-01 08:00:00')!.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(parseDateInput('yesterday')).toBeNull();
    expect(() => parseListQuery({ createTime_dategt: 'soon' }, rules)).toThrow(AppError);
  });

  it('orders by allowlisted fields, else by the default', () => {
    expect(parseListQuery({ ascs: 'sort', descs: 'postCode' }, rules).orderBy).toHaveLength(2);
    expect(parseListQuery({}, rules).orderBy).toHaveLength(1);
  });

  it('makes the page object of the contract', () => {
    expect(toPage([1, 2], 23, { current: 2, size: 10 })).toEqual({
      records: [1, 2],
      total: 23,
      size: 10,
      current: 2,
      pages: 3,
    });
  });
});
