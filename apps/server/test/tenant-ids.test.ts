// Issue 9 §2: tenants created at the same moment without a tenant id each get their own generated id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, loginToken, type TestApp } from './harness.ts';

let t: TestApp;
let platform: string;

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
});
afterAll(async () => t?.close());

describe('generated tenant ids', () => {
  it('six concurrent creates without a tenant id: six successes, six distinct ids', async () => {
    const p = client(t, platform);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => p.post('/api/blade-system/tenant/submit', { tenantName: `Concurrent ${i}` })),
    );
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const ids = answers.map((a) => a.json().data.tenantId as string);
    expect(new Set(ids).size).toBe(6);
    for (const id of ids) expect(id).toMatch(/^\d{6}$/);
    // Each was provisioned: its administrator logs in with the one-time password.
    for (const a of answers) {
      const { tenantId, adminPassword } = a.json().data;
      expect((await loginToken(t, { tenantId, password: adminPassword })).access).toBeTruthy();
    }
  });

  it('the id of a removed tenant is not given again: a clear 400, not a 500', async () => {
    const p = client(t, platform, 'en');
    const made = await p.post('/api/blade-system/tenant/submit', { tenantId: '739411', tenantName: 'Gone soon' });
    expect(made.statusCode, made.body).toBe(200);
    expect((await p.post(`/api/blade-system/tenant/remove?ids=${made.json().data.id}`)).statusCode).toBe(200);
    const again = await p.post('/api/blade-system/tenant/submit', { tenantId: '739411', tenantName: 'Again' });
    expect(again.statusCode, again.body).toBe(400);
    expect(again.json().msg).toMatch(/belonged to a removed tenant/);
  });
});
