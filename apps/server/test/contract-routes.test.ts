// The routes declared in the contract (docs/api.md "Routes in the contract") are the server's routes: each one is
// registered with the declared methods, path, authentication, permission codes and platform flag, and every route the
// server registers is either a resource's (derived from its definition) or declared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, methodsOf, type ApiRoute } from '@atrium/contract';
import { createTestApp, type TestApp } from './harness.ts';

const CRUD = [
  'list',
  'page',
  'detail',
  'submit',
  'save',
  'update',
  'remove',
  'tree',
  'lazy-list',
  'lazy-tree',
  'select',
];

/** Whether a registered route is one a resource binding makes from its definition. */
function isResourceRoute(url: string): boolean {
  for (const { def } of t.services.registry.bindings.values()) {
    if (!url.startsWith(def.base + '/')) continue;
    const rest = url.slice(def.base.length + 1);
    const own = [
      ...CRUD,
      def.listPath,
      def.createPath,
      ...Object.entries(def.actions ?? {}).map(([n, a]) => a.path ?? n),
    ];
    if (own.includes(rest)) return true;
  }
  return false;
}

const declared: ApiRoute[] = Object.values(api).flatMap((area) => Object.values(area) as ApiRoute[]);
const sorted = (p: string | readonly string[] | undefined) => (p === undefined ? [] : [p].flat().sort());

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('routes declared in the contract', () => {
  it('are each registered as declared (methods, authentication, permission codes, platform)', () => {
    expect(declared.length).toBeGreaterThan(0);
    for (const r of declared)
      for (const method of methodsOf(r)) {
        const found = t.routeTable.find((e) => e.method === method && e.url === r.path);
        expect(found, `${method} ${r.path} is not registered`).toBeDefined();
        expect({ auth: found!.auth, permission: sorted(found!.permission), platform: !!found!.platform }).toEqual({
          auth: r.auth,
          permission: sorted(r.permission),
          platform: !!r.platform,
        });
      }
  });

  it('cover every registered route that is not a resource route', () => {
    const keys = new Set(declared.flatMap((r) => methodsOf(r).map((m) => `${m} ${r.path}`)));
    const custom = t.routeTable.filter((e) => !isResourceRoute(e.url)).map((e) => `${e.method} ${e.url}`);
    const undeclared = custom.filter((k) => !keys.has(k));
    expect(undeclared, 'declare these routes in packages/contract/src/api/routes/').toEqual([]);
  });
});
