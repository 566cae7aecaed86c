import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from './harness.ts';

/**
 * Answers follow the request's language, on every route (generated from the route table): an English request never
 * gets a Chinese message — not in `msg`, not in a field error — whether the call succeeds or fails. Each route is
 * called as the platform administrator and as a tenant administrator, with an empty body and with a body of
 * wrong types, so required-field, type and refusal messages are all reached.
 */
let t: TestApp;
let platform: string;
let tenant: string;
const CJK = /[\u3400-\u9fff\uff00-\uffef]/;

type Route = TestApp['routeTable'][number];
/** Logout would end the session the walk needs; uploads need multipart. */
const skip = (r: Route) => r.url.includes('/oauth/logout') || r.url.includes(':') || r.url.endsWith('/put-file');

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
  tenant = (await provisionedTenant(t, platform, '740001')).token;
});
afterAll(async () => t?.close());

describe('English requests get English answers on every route', () => {
  it('walks the route table', async () => {
    const chinese: string[] = [];
    const routes = t.routeTable.filter((r) => !skip(r));
    expect(routes.length).toBeGreaterThan(80);
    for (const r of routes) {
      for (const token of [platform, tenant]) {
        const en = client(t, token, 'en');
        const bodies = r.method === 'POST' ? [{}, { id: 'x', ids: 'x', name: 5, code: 5, roleIds: 'x' }] : [undefined];
        for (const body of bodies) {
          const res =
            r.method === 'POST'
              ? await en.post(`${r.url}?current=x&ids=x`, body)
              : await en.get(`${r.url}?current=x&id=x`);
          if (res.headers['content-type']?.toString().includes('json') !== true) continue;
          const json = res.json() as { msg?: string; data?: unknown; error_description?: string };
          const texts = [json.msg ?? '', json.error_description ?? ''];
          if (res.statusCode === 400 && Array.isArray(json.data)) {
            for (const f of json.data as { message?: string }[]) texts.push(f.message ?? '');
          }
          for (const text of texts) {
            if (CJK.test(text)) chinese.push(`${r.method} ${r.url} ${res.statusCode}: ${text}`);
          }
        }
      }
    }
    expect(chinese).toEqual([]);
  });

  it('dictionaries answer their entries in the reader language (system and business)', async () => {
    // The platform tenant's business dictionaries are seeded; a new tenant starts with none.
    const values = async (url: string, lang?: 'en') =>
      ((await client(t, platform, lang).get(url)).json().data as { dictValue: string }[]).map((e) => e.dictValue);
    expect(await values('/api/blade-system/dict/dictionary?code=sex', 'en')).toEqual(['Male', 'Female', 'Unknown']);
    expect(await values('/api/blade-system/dict/dictionary?code=sex')).toEqual(['男', '女', '未知']);
    expect(await values('/api/blade-system/dict-biz/dictionary?code=device_status', 'en')).toEqual([
      'Online',
      'Offline',
      'Faulty',
    ]);
  });
});
