// Custom data scopes (type 5) are checked when saved: the column must be one of the resource's scope columns and each
// value must fit its kind; a rule already stored that no longer fits matches nothing instead of failing the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { client, createTestApp, loginToken, provisionedTenant, userToken, type TestApp } from './harness.ts';
import { dataScope, menu } from '../src/db/schema/index.ts';
import { newId } from '../src/db/ids.ts';
import { customValues } from '../src/platform/access.ts';

let t: TestApp;
let adminToken: string;
let admin: ReturnType<typeof client>;
const TENANT = '630001';
const PASSWORD = 'Rules#2026xyz';

type Json = { code: number; msg: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
const json = (r: { json(): unknown }) => r.json() as Json;
const menuIds = async (codes: string[]) =>
  (
    await t.services.db
      .select({ id: menu.id })
      .from(menu)
      .where(and(inArray(menu.code, codes), eq(menu.tenantId, '000000')))
  ).map((m) => m.id);

beforeAll(async () => {
  t = await createTestApp();
  const platform = (await loginToken(t)).access;
  adminToken = (await provisionedTenant(t, platform, TENANT)).token;
  admin = client(t, adminToken, 'en');
});
afterAll(async () => t?.close());

const rule = async (resourceCode: string, scopeColumn: string, scopeValue: string) => {
  const [menuId] = await menuIds([resourceCode]);
  return admin.post('/api/blade-system/data-scope/submit', {
    menuId,
    resourceCode,
    scopeName: `${resourceCode}.${scopeColumn}`,
    scopeType: 5,
    scopeColumn,
    scopeValue,
  });
};

describe('custom data scopes', () => {
  it('reads values as the kind of their column; placeholders stand for ids only', () => {
    expect(customValues('id', '12, ${userId},${deptId}')).toEqual({ values: ['12', '${userId}', '${deptId}'] });
    expect(customValues('id', '12x')).toEqual({ bad: '12x' });
    expect(customValues('id', '99999999999999999999')).toEqual({ bad: '99999999999999999999' });
    expect(customValues('int', '1,2')).toEqual({ values: [1, 2] });
    expect(customValues('int', '1.5')).toEqual({ bad: '1.5' });
    expect(customValues('decimal', '1.5')).toEqual({ values: [1.5] });
    expect(customValues('date', '2026-01-02')).toMatchObject({ values: [expect.any(Date)] });
    expect(customValues('date', 'yesterday')).toEqual({ bad: 'yesterday' });
    expect(customValues('text', '${userId}')).toEqual({ bad: '${userId}' });
    expect(customValues('text', 'a, b')).toEqual({ values: ['a', 'b'] });
  });

  it('refuses, when saved, a column the resource does not offer and a value that does not fit, naming the column', async () => {
    const cases: [string, string, string, RegExp][] = [
      ['user', 'status', 'abc', /The value "abc" does not fit the column status \(integer\)/],
      ['user', 'postId', '12x', /The value "12x" does not fit the column postId \(id\)/],
      ['user', 'account', '${userId}', /\$\{userId\} stands for an id and cannot be used with the column account/],
      ['dept', 'deptCategory', '1,two', /The value "two" does not fit the column deptCategory \(integer\)/],
      ['user', 'password', '1', /The custom rule's column must be one of/],
      ['user', 'account', ' , ', /Enter the rule values/],
    ];
    for (const [resource, column, value, text] of cases) {
      const res = await rule(resource, column, value);
      expect(res.statusCode, `${resource}.${column}=${value}`).toBe(400);
      expect(json(res).msg).toMatch(text);
    }
    // In Chinese too, naming the column; the field error is on the values.
    const [userMenu] = await menuIds(['user']);
    const zh = await client(t, adminToken).post('/api/blade-system/data-scope/submit', {
      menuId: userMenu,
      resourceCode: 'user',
      scopeName: 'zh',
      scopeType: 5,
      scopeColumn: 'status',
      scopeValue: 'abc',
    });
    expect(json(zh).msg).toContain('status');
    expect(json(zh).msg).toContain('abc');
    expect(json(zh).data).toMatchObject([{ field: 'scopeValue' }]);
    for (const [resource, column, value] of [
      ['user', 'account', 'someone'],
      ['user', 'postId', '${deptId}'],
      ['dept', 'parentId', '${deptId}'],
      ['dept', 'deptCategory', '1, 2'],
    ])
      expect((await rule(resource, column, value)).statusCode, `${resource}.${column}=${value}`).toBe(200);
  });

  it('a rule stored before the check (or whose column went away) matches nothing; the list never fails', async () => {
    const [userMenu] = await menuIds(['user']);
    const stored = (scopeColumn: string, scopeValue: string) => ({
      id: newId(),
      tenantId: TENANT,
      menuId: userMenu,
      resourceCode: 'user',
      scopeName: `stored ${scopeColumn}`,
      scopeType: 5,
      scopeColumn,
      scopeValue,
    });
    const badId = stored('postId', 'abc');
    const gone = stored('nosuch', '1');
    const badInt = stored('status', '99999999999');
    await t.services.db.insert(dataScope).values([badId, gone, badInt]);
    const good = json(await rule('user', 'account', 'admin')).data;
    const roleWith = async (alias: string, scopeIds: string[]) => {
      const r = json(await admin.post('/api/blade-system/role/submit', { roleName: alias, roleAlias: alias })).data;
      const g = await admin.post('/api/blade-system/role/grant', {
        roleIds: [r.id],
        menuIds: await menuIds(['system', 'user']),
        dataScopeIds: scopeIds,
      });
      expect(g.statusCode, g.body).toBe(200);
      return r.id as string;
    };
    const seen = async (account: string, roleIds: string[]) => {
      const made = await admin.post('/api/blade-user/submit', {
        account,
        realName: account,
        password: PASSWORD,
        roleIds,
      });
      expect(made.statusCode, made.body).toBe(200);
      const res = await client(t, await userToken(t, TENANT, account, PASSWORD)).get('/api/blade-user/page?size=100');
      expect(res.statusCode, res.body).toBe(200);
      return (json(res).data.records as { account: string }[]).map((u) => u.account).sort();
    };
    expect(await seen('badonly', [await roleWith('bad_only', [badId.id, gone.id, badInt.id])])).toEqual([]);
    expect(await seen('badgood', [await roleWith('bad_good', [badId.id, good.id])])).toEqual(['admin']);
  });
});
