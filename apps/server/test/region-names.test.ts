import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, loginToken, tenantUser, type TestApp } from './harness.ts';

/**
 * `GET /api/blade-system/region/names?codes=` (docs/web.md "Field types", the region kind's cells): the names of a
 * page of region codes in one call, for every signed-in user, at most 200 codes.
 */
const URL = '/api/blade-system/region/names';
let t: TestApp;
let platform: string;
let nobody: string;

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
  // A tenant user holding no menu code at all: the cells of any screen must still read names.
  nobody = await tenantUser(t, '761001', 'nm-nobody', []);
});
afterAll(async () => t?.close());

type Named = { code: string; name: string };

describe('region names by code', () => {
  it('answers the names of the codes asked, in their order, the unknown ones left out', async () => {
    const res = await client(t, nobody).get(`${URL}?codes=110105,110101,33,330106,999999,110105`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data as Named[]).toEqual([
      { code: '110105', name: '朝阳区' },
      { code: '110101', name: '东城区' },
      { code: '33', name: '浙江省' },
      { code: '330106', name: '西湖区' },
    ]);
  });

  it('answers the national names in English too (the table holds no other)', async () => {
    const res = await client(t, platform, 'en').get(`${URL}?codes=110101`);
    expect(res.json().data).toEqual([{ code: '110101', name: '东城区' }]);
  });

  it('takes at most 200 codes; more, none or malformed ones are a 400 in the caller language', async () => {
    const districts = Array.from({ length: 200 }, (_, i) => `1101${String(i).padStart(2, '0')}`);
    expect((await client(t, nobody).get(`${URL}?codes=${districts.join(',')}`)).statusCode).toBe(200);
    const en = client(t, nobody, 'en');
    const tooMany = await en.get(`${URL}?codes=${[...districts, '110300'].join(',')}`);
    expect([tooMany.statusCode, tooMany.json().msg]).toEqual([400, 'At most 200 region codes at once']);
    const zh = await client(t, nobody).get(`${URL}?codes=${[...districts, '110300'].join(',')}`);
    expect([zh.statusCode, zh.json().msg]).toEqual([400, '一次最多查询 200 个区划编号']);
    const bad = await en.get(`${URL}?codes=110101,abc`);
    expect([bad.statusCode, bad.json().msg]).toEqual([400, 'A region code has 2 to 12 digits']);
    const long = await en.get(`${URL}?codes=1101011234567`);
    expect([long.statusCode, long.json().msg]).toEqual([400, 'A region code has 2 to 12 digits']);
    for (const query of ['', '?codes=', '?codes=,,']) {
      const none = await en.get(`${URL}${query}`);
      expect([query, none.statusCode, none.json().msg]).toEqual([query, 400, 'Name the region codes (a comma list)']);
    }
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${URL}?codes=110101` });
    expect(res.statusCode).toBe(401);
  });
});
