// Field kinds mean what they say (docs/resources.md "Kinds and columns", "Dictionary values"): a dict value exists
// in its dictionary, a date is a calendar day on the wire and in the database, and a binding whose columns do not
// hold its kinds refuses to start.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { integer, varchar } from 'drizzle-orm/pg-core';
import { defineResource, type ResourceDef } from '@atrium/contract';
import { post as postDef } from '@atrium/contract/resources/system/post';
import { post, user } from '../src/db/schema/index.ts';
import { tenantTable } from '../src/db/schema/tables.ts';
import { ts } from '../src/db/schema/columns.ts';
import { bindResource, resourceRoutes } from '../src/platform/resource.ts';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';
import { rowsOf } from '../src/db/rows.ts';

/** The post record on a business dictionary of the tenant (a definition of this test only, on the post table). */
const postBiz = defineResource({
  ...postDef,
  code: 'postbiz',
  base: '/api/test-kinds/postbiz',
  codes: { view: 'post', add: 'post_add', edit: 'post_edit', remove: 'post_delete', viewButton: 'post_view' },
  fields: {
    ...postDef.fields,
    category: { kind: 'dict', dict: 'kinds_level', biz: true, keys: 'int', label: { zh: '级别', en: 'Level' } },
  },
});

let t: TestApp;
let platform: string;
let A: string;
let B: string;
beforeAll(async () => {
  t = await createTestApp({}, (app, s) => {
    resourceRoutes(app, s, bindResource(postBiz, post));
  });
  platform = (await loginToken(t)).access;
  A = (await provisionedTenant(t, platform, '730001')).token;
  B = (await provisionedTenant(t, platform, '730002')).token;
});
afterAll(async () => t?.close());

const postsCoded = (tenantId: string, postCode: string) =>
  rowsOf<{ n: number }>(
    t.services.db,
    sql`select count(*)::int as n from ${post} where tenant_id = ${tenantId} and post_code = ${postCode}`,
  );

describe('dict values exist in their dictionary', () => {
  it('refuses a system dictionary value it does not hold, naming the field in zh and en, and writes nothing', async () => {
    const zh = await client(t, A).post('/api/blade-system/post/submit', {
      category: 999,
      postCode: 'zz9',
      postName: 'bad',
    });
    expect([zh.statusCode, zh.json().msg]).toEqual([400, '岗位类型的取值 999 不存在']);
    expect(zh.json().data).toEqual([{ field: 'category', message: '岗位类型的取值 999 不存在' }]);
    const en = await client(t, A, 'en').post('/api/blade-system/post/submit', {
      category: '999',
      postCode: 'zz9',
      postName: 'bad',
    });
    expect([en.statusCode, en.json().msg]).toEqual([400, 'Category 999 does not exist']);
    expect((await postsCoded('730001', 'zz9'))[0].n).toBe(0);
    const good = await client(t, A).post('/api/blade-system/post/submit', {
      category: 2,
      postCode: 'zz9',
      postName: 'good',
    });
    expect(good.statusCode).toBe(200);
  });

  it('follows the dictionary as it changes; a record keeps a value removed since until it is given another', async () => {
    const a = client(t, A);
    const kept = await a.post('/api/blade-system/post/submit', { category: 4, postCode: 'k4', postName: 'four' });
    expect(kept.statusCode).toBe(200);
    const p = client(t, platform);
    const entries = (await p.get('/api/blade-system/dict/dictionary?code=post_category')).json().data as {
      id: string;
      dictKey: string;
    }[];
    const four = entries.find((e) => e.dictKey === '4')!;
    expect((await p.post(`/api/blade-system/dict/remove?ids=${four.id}`)).statusCode).toBe(200);

    // Seen at once (the cache epoch moved): a new record may no longer take it...
    const refused = await a.post('/api/blade-system/post/submit', { category: 4, postCode: 'k5', postName: 'five' });
    expect([refused.statusCode, refused.json().msg]).toEqual([400, '岗位类型的取值 4 不存在']);
    // ...the record holding it may be edited without changing it, but not moved to another missing value.
    const { id, version } = kept.json().data as { id: string; version: number };
    const edited = await a.post('/api/blade-system/post/submit', {
      id,
      version,
      category: 4,
      postCode: 'k4',
      postName: 'still four',
    });
    expect(edited.statusCode).toBe(200);
    const moved = await a.post('/api/blade-system/post/submit', { id, category: 998, postCode: 'k4', postName: 'x' });
    expect([moved.statusCode, moved.json().msg]).toEqual([400, '岗位类型的取值 998 不存在']);
    const detail = (await a.get(`/api/blade-system/post/detail?id=${id}`)).json().data;
    expect([detail.category, detail.postName]).toEqual([4, 'still four']);
  });

  it('a business dictionary is the tenant’s own', async () => {
    const body = { category: 7, postCode: 'b7', postName: 'seven' };
    const before = await client(t, A, 'en').post('/api/test-kinds/postbiz/submit', body);
    expect([before.statusCode, before.json().msg]).toEqual([400, 'Level 7 does not exist']);

    // Tenant A adds the dictionary and its key 7.
    const a = client(t, A);
    const parent = await a.post('/api/blade-system/dict-biz/submit', {
      parentId: '0',
      code: 'kinds_level',
      dictValue: '级别',
      sort: 1,
      isSealed: 0,
    });
    expect(parent.statusCode).toBe(200);
    const entry = await a.post('/api/blade-system/dict-biz/submit', {
      parentId: parent.json().data.id,
      code: 'kinds_level',
      dictKey: '7',
      dictValue: '七级',
      sort: 1,
      isSealed: 0,
    });
    expect(entry.statusCode).toBe(200);

    expect((await a.post('/api/test-kinds/postbiz/submit', body)).statusCode).toBe(200);
    const other = await client(t, B).post('/api/test-kinds/postbiz/submit', body);
    expect([other.statusCode, other.json().msg]).toEqual([400, '级别的取值 7 不存在']);
    expect((await postsCoded('730002', 'b7'))[0].n).toBe(0);
  });
});

describe('a date is a calendar day', () => {
  const newUser = (account: string, birthday: unknown) => ({
    account,
    realName: '生日',
    password: 'Birthday#2026',
    birthday,
  });

  it('is answered as the day sent, and a wrong format is refused by name', async () => {
    const a = client(t, A);
    const made = await a.post('/api/blade-user/submit', newUser('bday1', '2026-11-27'));
    expect([made.statusCode, made.json().data.birthday]).toEqual([200, '2026-11-27']);
    const id = made.json().data.id as string;
    expect((await a.get(`/api/blade-user/detail?id=${id}`)).json().data.birthday).toBe('2026-11-27');
    const [stored] = await t.services.db
      .select({ day: sql<string>`${user.birthday}::text` })
      .from(user)
      .where(eq(user.id, id));
    expect(stored.day).toBe('2026-11-27');

    for (const bad of ['2026-11-27T00:00:00.000Z', '2026-02-30', '27.11.2026']) {
      const res = await client(t, A, 'en').post('/api/blade-user/submit', newUser(`bday-${bad.length}`, bad));
      expect([bad, res.statusCode, res.json().data]).toEqual([
        bad,
        400,
        [{ field: 'birthday', message: 'Birthday must be a valid day written YYYY-MM-DD' }],
      ]);
    }
  });

  it('migration 0036 turns each stored instant into its day in Asia/Shanghai, whatever the session zone', async () => {
    const file = new URL('../src/db/migrations/0036_date_columns.sql', import.meta.url);
    const day = await t.services.db.transaction(async (tx) => {
      // As a database before the migration: the day 2026-11-27 was written as midnight +08:00.
      await tx.execute(
        sql.raw(`alter table "user" alter column birthday type timestamptz using birthday::timestamptz`),
      );
      await tx.execute(sql`set local timezone = 'America/Los_Angeles'`);
      await tx.execute(sql`update "user" set birthday = '2026-11-27T00:00:00+08:00' where account = 'bday1'`);
      await tx.execute(sql.raw(fs.readFileSync(file, 'utf8')));
      const rows = await rowsOf<{ day: string }>(
        tx,
        sql`select birthday::text as day from "user" where account = 'bday1'`,
      );
      return rows[0].day;
    });
    expect(day).toBe('2026-11-27');
  });
});

describe('a binding checks each field’s kind against its column at start', () => {
  const label = { zh: '字段', en: 'Field' };
  const bind = (fields: ResourceDef['fields'], columns: Parameters<typeof tenantTable>[1]) =>
    bindResource(
      defineResource({
        code: 'kindsbad',
        group: 'test',
        base: '/api/test-kinds/bad',
        label,
        scope: 'tenant',
        fields,
      }),
      // A table that may lack the definition's columns on purpose: the binding must refuse it at start.
      tenantTable('kinds_bad', columns) as never,
    );

  it.each([
    [
      'an int dict in a text column',
      { level: { kind: 'dict', dict: 'x', keys: 'int', label } },
      { level: varchar('level', { length: 10 }) },
      'resource kindsbad: field level of kind dict is stored in kinds_bad.level of type varchar; a dict field needs integer or smallint',
    ],
    [
      'a date in a timestamp',
      { day: { kind: 'date', label } },
      { day: ts('day') },
      'resource kindsbad: field day of kind date is stored in kinds_bad.day of type timestamp with time zone (date mode); a date field needs date (string mode)',
    ],
    [
      'a textarea in an integer',
      { note: { kind: 'textarea', label } },
      { note: integer('note') },
      'resource kindsbad: field note of kind textarea is stored in kinds_bad.note of type integer; a textarea field needs varchar or text or char',
    ],
  ] as const)('%s throws, naming resource, field, kind and column type', (_what, fields, columns, message) => {
    expect(() => bind(fields as ResourceDef['fields'], columns)).toThrow(message);
  });

  it('binds fields on the columns of their kinds', () => {
    expect(() =>
      bind(
        { level: { kind: 'dict', dict: 'x', keys: 'int', label }, note: { kind: 'textarea', label } },
        { level: integer('level'), note: varchar('note', { length: 20 }) },
      ),
    ).not.toThrow();
  });
});
