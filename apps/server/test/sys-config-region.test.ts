import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, loginToken, provisionedTenant, tenantUser, type TestApp } from './harness.ts';

/**
 * Config by region (docs/product.md "Config by region", docs/system-api.md "Config by region"): the CRUD's checks
 * and the effective settings of a region — the tenant default, then each ancestor, then the region, key by key,
 * with the region each key came from — within one tenant only.
 */
const BASE = '/api/blade-auth/sysConfigRegion';
const RESOLVE = `${BASE}/getSysConfigByRegionType`;
let t: TestApp;
let platform: string;
let A: string;
let B: string;
let readerA: string;

type Effective = { regionCode: string; sysType: string; chain: string[]; config: object; sources: object };

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
  A = (await provisionedTenant(t, platform, '781001')).token;
  B = (await provisionedTenant(t, platform, '781002')).token;
  // A signed-in user of tenant A holding no code at all.
  readerA = await tenantUser(t, '781001', 'cfgreader', []);
});
afterAll(async () => t?.close());

const add = async (token: string, body: Record<string, unknown>, lang?: 'en') =>
  client(t, token, lang).post(`${BASE}/submit`, body);
const resolve = async (token: string, regionCode: string, sysType: string) => {
  const res = await client(t, token).get(`${RESOLVE}?regionCode=${regionCode}&sysType=${sysType}`);
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, res.body.slice(0, 200)]);
  return res.json().data as Effective;
};

describe('config by region', () => {
  it('merges the tenant default, the ancestors and the region key by key, naming the source of each key', async () => {
    for (const [regionCode, config] of [
      ['00', { zoom: 10, provider: 'amap', traffic: false }],
      ['11', { zoom: 11, key: 'beijing-key' }],
      ['110101', { zoom: 13, 'center.lng': 116.41 }],
    ] as const) {
      const res = await add(A, { regionCode, sysType: 'map', config, remark: `map ${regionCode}` });
      expect([regionCode, res.statusCode, res.json().msg]).toEqual([regionCode, 200, '新增成功']);
      expect(res.json().data.config).toEqual(config);
    }

    // A district: the default, its province (11), its city (1101, no entry) and itself.
    const district = await resolve(readerA, '110101', 'map');
    expect(district.chain).toEqual(['00', '11', '1101', '110101']);
    expect(district.config).toEqual({
      zoom: 13,
      provider: 'amap',
      traffic: false,
      key: 'beijing-key',
      'center.lng': 116.41,
    });
    expect(district.sources).toEqual({
      zoom: '110101',
      provider: '00',
      traffic: '00',
      key: '11',
      'center.lng': '110101',
    });

    // The city between them: the province wins over the default.
    const city = await resolve(readerA, '1101', 'map');
    expect(city.config).toEqual({ zoom: 11, provider: 'amap', traffic: false, key: 'beijing-key' });
    expect(city.sources).toEqual({ zoom: '11', provider: '00', traffic: '00', key: '11' });

    // Another province and the default itself: the default alone.
    const other = await resolve(readerA, '310101', 'map');
    expect(other.config).toEqual({ zoom: 10, provider: 'amap', traffic: false });
    expect(other.sources).toEqual({ zoom: '00', provider: '00', traffic: '00' });
    expect((await resolve(readerA, '00', 'map')).chain).toEqual(['00']);

    // A type without entries: nothing, not an error; an unknown type the same.
    expect(await resolve(readerA, '110101', 'video')).toMatchObject({ config: {}, sources: {} });
    expect(await resolve(readerA, '110101', 'no-such-type')).toMatchObject({ config: {}, sources: {} });
  });

  it("never uses another tenant's entries", async () => {
    expect((await add(B, { regionCode: '110101', sysType: 'map', config: { zoom: 99, onlyB: 'b' } })).statusCode).toBe(
      200,
    );
    const a = await resolve(A, '110101', 'map');
    expect(a.config).not.toHaveProperty('onlyB');
    expect(a.config).toMatchObject({ zoom: 13 });
    const b = await resolve(B, '110101', 'map');
    expect(b.config).toEqual({ zoom: 99, onlyB: 'b' });
    expect(b.sources).toEqual({ zoom: '110101', onlyB: '110101' });
    // B's list holds B's entry only; A's default is not B's to read.
    const list = (await client(t, B).get(`${BASE}/list?size=100`)).json().data.records as { config: object }[];
    expect(list.map((r) => r.config)).toEqual([{ zoom: 99, onlyB: 'b' }]);
  });

  it('answers the region name and lists by region and type', async () => {
    const res = await client(t, A).get(`${BASE}/list?sysType=map&regionCode=110101`);
    const [row] = res.json().data.records as Record<string, unknown>[];
    expect(row).toMatchObject({ regionCode: '110101', sysType: 'map', config: { zoom: 13, 'center.lng': 116.41 } });
    expect(String(row.regionName)).toContain('东城区');
  });

  it('refuses bad queries with 400s in both languages', async () => {
    const ask = (q: string, lang?: 'en') => client(t, readerA, lang).get(`${RESOLVE}?${q}`);
    for (const q of [
      'sysType=map',
      'regionCode=abc&sysType=map',
      'regionCode=1234567890123&sysType=map',
      'regionCode=11',
    ]) {
      expect([q, (await ask(q)).statusCode]).toEqual([q, 400]);
    }
    const unknown = await ask('regionCode=119999&sysType=map');
    expect([unknown.statusCode, unknown.json().msg]).toEqual([400, '区划不存在']);
    const unknownEn = await ask('regionCode=119999&sysType=map', 'en');
    expect([unknownEn.statusCode, unknownEn.json().msg]).toEqual([400, 'The region does not exist']);
    expect((await ask('regionCode=11&sysType=a%20b')).statusCode).toBe(400);
  });

  it('checks the settings: a flat object of well-formed keys and scalar values', async () => {
    const bad: [unknown, string][] = [
      [[1, 2], 'Settings must be an object'],
      ['not json', 'Settings must be an object'],
      [{}, 'Add at least one setting'],
      [{ nested: { a: 1 } }, 'The value of "nested" must be text, a number or true/false'],
      [{ empty: null }, 'The value of "empty" must be text'],
      [{ list: [1] }, 'The value of "list" must be text'],
      [{ '1abc': 1 }, 'The key "1abc" is not valid'],
      [{ 'a b': 1 }, 'The key "a b" is not valid'],
      // (A body naming __proto__ is refused as a whole before any route; in the JSON text it reaches the check.)
      ['{"__proto__": 1}', 'The key "__proto__" is not valid'],
      [{ long: 'x'.repeat(1001) }, 'The value of "long" is longer than 1000 characters'],
      [Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])), 'At most 100 settings'],
    ];
    for (const [config, text] of bad) {
      const res = await add(A, { regionCode: '1101', sysType: 'video', config }, 'en');
      expect([JSON.stringify(config).slice(0, 40), res.statusCode]).toEqual([JSON.stringify(config).slice(0, 40), 400]);
      const fields = (res.json().data ?? []) as { field: string; message: string }[];
      expect([res.body.slice(0, 300), fields.find((f) => f.field === 'config')?.message]).toEqual([
        res.body.slice(0, 300),
        expect.stringContaining(text),
      ]);
    }
    const zh = await add(A, { regionCode: '1101', sysType: 'video', config: { x: { y: 1 } } });
    expect(zh.json().msg).toContain('配置项“x”的值应为文本、数字或是/否');
    const missing = await add(A, { regionCode: '1101', sysType: 'video' });
    expect(
      (missing.json().data as { field: string; message: string }[]).find((f) => f.field === 'config')?.message,
    ).toBe('请输入配置项');

    // The JSON text of an object is taken too, and answered as the object.
    const text = await add(A, { regionCode: '1101', sysType: 'video', config: '{"codec":"h264","fps":25}' });
    expect([text.statusCode, text.json().data.config]).toEqual([200, { codec: 'h264', fps: 25 }]);
  });

  it('refuses an unknown region and a type outside the dictionary', async () => {
    const region = await add(A, { regionCode: '119999', sysType: 'map', config: { a: 1 } }, 'en');
    expect([region.statusCode, region.json().data]).toEqual([
      400,
      [{ field: 'regionCode', message: 'The region does not exist' }],
    ]);
    const type = await add(A, { regionCode: '11', sysType: 'weather', config: { a: 1 } });
    expect([type.statusCode, type.json().data]).toEqual([400, [{ field: 'sysType', message: '配置类型不在字典中' }]]);
  });

  it('keeps one live entry per region and type, with a clear message; a removed one frees its place', async () => {
    const dup = await add(A, { regionCode: '11', sysType: 'map', config: { zoom: 1 } });
    expect([dup.statusCode, dup.json().msg, dup.json().data?.[0]?.field]).toEqual([
      400,
      '该区划已有此类型的配置',
      'sysType',
    ]);
    const dupEn = await add(A, { regionCode: '11', sysType: 'map', config: { zoom: 1 } }, 'en');
    expect(dupEn.json().msg).toBe('This region already has a config of this type');
    // The same region and type in another tenant is no conflict (B has none at 11); another type is none either.
    expect((await add(B, { regionCode: '11', sysType: 'map', config: { zoom: 1 } })).statusCode).toBe(200);
    expect((await add(A, { regionCode: '11', sysType: 'sms', config: { sign: 'Atrium' } })).statusCode).toBe(200);

    const [row] = (await client(t, A).get(`${BASE}/list?regionCode=11&sysType=map`)).json().data.records;
    expect((await client(t, A).post(`${BASE}/remove?ids=${row.id}`)).statusCode).toBe(200);
    const after = await resolve(A, '110101', 'map');
    expect(after.config).not.toHaveProperty('key');
    expect(after.sources).toMatchObject({ zoom: '110101', provider: '00' });
    expect((await add(A, { regionCode: '11', sysType: 'map', config: { key: 'again' } })).statusCode).toBe(200);
  });

  it('needs the screen codes for the CRUD, but only a sign-in for the effective settings', async () => {
    expect((await client(t, readerA).get(`${BASE}/list`)).statusCode).toBe(403);
    expect((await client(t, readerA).post(`${BASE}/submit`, { regionCode: '11', sysType: 'map' })).statusCode).toBe(
      403,
    );
    expect((await resolve(readerA, '11', 'map')).config).toMatchObject({ key: 'again' });
    const anonymous = await t.app.inject({ method: 'GET', url: `${RESOLVE}?regionCode=11&sysType=map` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("keeps a region used by any tenant's entry from being removed", async () => {
    const regions = client(t, platform);
    const made = await regions.post('/api/blade-system/region/submit', {
      parentCode: '110101',
      code: '110101997',
      name: '配置测试街道',
    });
    expect(made.statusCode).toBe(200);
    const entry = await add(A, { regionCode: '110101997', sysType: 'video', config: { fps: 15 } });
    expect(entry.statusCode).toBe(200);
    const refused = await regions.post(`/api/blade-system/region/remove?id=${made.json().data.id}`);
    expect([refused.statusCode, refused.json().msg]).toEqual([400, expect.stringContaining('配置测试街道')]);
    expect((await client(t, A).post(`${BASE}/remove?ids=${entry.json().data.id}`)).statusCode).toBe(200);
    expect((await regions.post(`/api/blade-system/region/remove?id=${made.json().data.id}`)).statusCode).toBe(200);
  });
});
