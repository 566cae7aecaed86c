import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, createTestApp, loginToken, tenantUser, type TestApp } from './harness.ts';
import { MOVE_NETWORKS, dbOfTenant, moveTenant, type TenantDatabase } from './support/moved.ts';

// Generated from the route table, not hand-listed: every route a later module adds is covered. On PostgreSQL the 403
// matrix runs a second time with the no-codes user's tenant moved to a database of its own (docs/tenants.md).
const PG = process.env.DATABASE_URL;
let t: TestApp;
let nobody: string;
let target: TenantDatabase | undefined;
beforeAll(async () => {
  t = await createTestApp({ datasourcePrivateNetworks: MOVE_NETWORKS });
  nobody = await tenantUser(t, '400001', 'no-codes', []);
});
afterAll(async () => {
  await t?.close();
  await target?.drop();
});

const fill = (url: string) => url.replace(/:(\w+)/g, 'x');
/** The same route reached through a percent-encoded path (`/%61pi/…`): the router decodes it; the guard must too. */
const encoded = (url: string) => `/%61${url.slice(2)}`;
const spellings = (url: string) => [fill(url), encoded(fill(url))];

describe('route table matrices', () => {
  it('has routes to check', () => {
    expect(t.routeTable.length).toBeGreaterThan(15);
    expect(t.routeTable.filter((r) => r.permission).length).toBeGreaterThan(3);
  });

  it('every non-public route answers 401 without a token', async () => {
    for (const r of t.routeTable.filter((x) => x.auth !== 'none')) {
      for (const url of spellings(r.url)) {
        const res = await t.app.inject({ method: r.method as 'GET', url, headers: { authorization: BASIC } });
        expect([r.method, url, res.statusCode]).toEqual([r.method, url, 401]);
        expect(res.json()).toMatchObject({ code: 401, success: false });
      }
    }
  });

  it('every route that declares a permission answers 403 to a user without it, naming the code', async () => {
    await forbiddenMatrix();
  });
});

describe.skipIf(!PG)('route table matrices with the no-codes tenant moved', () => {
  beforeAll(async () => {
    target = await moveTenant(t, (await loginToken(t)).access, '400001');
    expect(dbOfTenant(t, '400001')).not.toBe(t.services.db);
  });

  it('every route that declares a permission answers 403 to the moved user without it, naming the code', async () => {
    await forbiddenMatrix();
  });
});

/** Every route that declares a permission, called by the no-codes user: 403 naming the code. */
async function forbiddenMatrix() {
  for (const r of t.routeTable.filter((x) => x.permission)) {
    for (const url of spellings(r.url)) {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url,
        headers: { authorization: BASIC, 'blade-auth': `bearer ${nobody}` },
      });
      expect([r.method, url, res.statusCode]).toEqual([r.method, url, 403]);
      const wanted = [
        ...(Array.isArray(r.permission) ? r.permission : [r.permission!]),
        ...(r.platform ? ['administrator@000000'] : []),
      ];
      expect([url, wanted.some((c) => res.json().msg.includes(c))]).toEqual([url, true]);
    }
  }
}
