import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, createTestApp, tenantUser, type TestApp } from './harness.ts';

// Generated from the route table, not hand-listed: every route a later module adds is covered.
let t: TestApp;
let nobody: string;
beforeAll(async () => {
  t = await createTestApp();
  nobody = await tenantUser(t, '400001', 'no-codes', []);
});
afterAll(async () => t?.close());

const fill = (url: string) => url.replace(/:(\w+)/g, 'x');

describe('route table matrices', () => {
  it('has routes to check', () => {
    expect(t.routeTable.length).toBeGreaterThan(15);
    expect(t.routeTable.filter((r) => r.permission).length).toBeGreaterThan(3);
  });

  it('every non-public route answers 401 without a token', async () => {
    for (const r of t.routeTable.filter((x) => x.auth !== 'none')) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: fill(r.url),
        headers: { authorization: BASIC },
      });
      expect([r.method, r.url, res.statusCode]).toEqual([r.method, r.url, 401]);
      expect(res.json()).toMatchObject({ code: 401, success: false });
    }
  });

  it('every route that declares a permission answers 403 to a user without it, naming the code', async () => {
    for (const r of t.routeTable.filter((x) => x.permission)) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: fill(r.url),
        headers: { authorization: BASIC, 'blade-auth': `bearer ${nobody}` },
      });
      expect([r.method, r.url, res.statusCode]).toEqual([r.method, r.url, 403]);
      const wanted = [
        ...(Array.isArray(r.permission) ? r.permission : [r.permission!]),
        ...(r.platform ? ['administrator@000000'] : []),
      ];
      expect([r.url, wanted.some((c) => res.json().msg.includes(c))]).toEqual([r.url, true]);
    }
  });
});
