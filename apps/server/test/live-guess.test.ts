// A list or detail may be admitted on the session's last live state, its live-state check riding with its first read
// (docs/server.md "Live state and cache epochs"). Whatever the guess, the answer is the one the live state gives: a
// token that no longer stands is a 401 (before a 400 or a 404), a guess the database no longer agrees with is
// admitted again and run again, and a refusal is never decided on a guess. Changes are made on instance A, the
// requests go to instance B whose guesses were warmed first. Guesses serve while B's memory of the live state is not
// trusted (its LISTEN connection down, platform/live-memory.ts): B's memory is set so for the whole file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, loginToken, secondInstance, type TestApp } from './harness.ts';
import { grantingTenant, menuIds as menuIdsOf } from './tenant-fixture.ts';

let a: TestApp;
let b: TestApp;
let platform: string;
const PASSWORD = 'Guess#2026xyz';

beforeAll(async () => {
  a = await createTestApp();
  b = await secondInstance(a);
  b.services.liveMemory.distrust();
  platform = (await loginToken(a)).access;
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const counts = () => ({ ...b.services.liveGuesses.counts });
const since = (before: ReturnType<typeof counts>) => {
  const now = counts();
  return {
    guessed: now.guessed - before.guessed,
    confirmed: now.confirmed - before.confirmed,
    stale: now.stale - before.stale,
    refused: now.refused - before.refused,
  };
};

const menuIds = (codes: string[]) => menuIdsOf(a, codes);
/** A tenant whose administrator makes roles and users on A. */
const tenant = (tenantId: string) => grantingTenant(a, platform, tenantId, PASSWORD);

describe('reads admitted on a guess of the live state', () => {
  it('the second list of a session is admitted on its guess and confirmed, with the same answer', async () => {
    const t = await tenant('630001');
    const r = await t.role('posts', { menus: ['system', 'post'] });
    const m = await t.member('guess-1', [r]);
    const u = client(b, m.token);
    const first = await u.get('/api/blade-system/post/list');
    expect(first.statusCode).toBe(200);
    const before = counts();
    const second = await u.get('/api/blade-system/post/list');
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toEqual(first.json().data);
    expect(since(before)).toEqual({ guessed: 1, confirmed: 1, stale: 0, refused: 0 });
    // A call that is not a list or detail never goes on a guess.
    const menus = counts();
    expect((await u.get('/api/blade-system/menu/routes')).statusCode).toBe(200);
    expect(since(menus).guessed).toBe(0);
  });

  it('a logout on another server: the next list, detail or bad query is a 401', async () => {
    const t = await tenant('630002');
    const r = await t.role('posts', { menus: ['system', 'post'] });
    const m = await t.member('guess-2', [r]);
    const u = client(b, m.token);
    expect((await u.get('/api/blade-system/post/list')).statusCode).toBe(200);
    expect((await client(a, m.token).get('/api/blade-auth/oauth/logout')).statusCode).toBe(200);
    const before = counts();
    // Refused on the guess, in the caller's language.
    const en = await client(b, m.token, 'en').get('/api/blade-system/post/list');
    expect(en.statusCode).toBe(401);
    expect(en.json().msg).toMatch(/^[\x20-\x7e]+$/);
    expect(since(before)).toMatchObject({ guessed: 1, refused: 1, confirmed: 0 });
    const list = await u.get('/api/blade-system/post/list');
    expect(list.statusCode).toBe(401);
    expect(list.json().msg).toBe('请求未授权');
    // Refused once, the session has no guess left: every later call is checked live and refused.
    for (const url of [
      '/api/blade-system/post/detail?id=1',
      '/api/blade-system/post/detail?id=not-a-number',
      '/api/blade-system/post/list?descs=password',
    ])
      expect((await u.get(url)).statusCode, url).toBe(401);
  });

  it('a revoked token meets a 401 before the 400 of a bad query or the 404 of a missing record', async () => {
    const t = await tenant('630003');
    const r = await t.role('posts', { menus: ['system', 'post'] });
    const cases = [
      '/api/blade-system/post/detail?id=not-a-number', // the route's schema refuses it: 400 on a live token
      '/api/blade-system/post/list?descs=password', // the list's allowlist refuses it before any read: 400
      '/api/blade-system/post/detail?id=1', // read, nothing found: 404
    ];
    for (const [i, url] of cases.entries()) {
      const m = await t.member(`guess-3-${i}`, [r]);
      const u = client(b, m.token);
      expect((await u.get('/api/blade-system/post/list')).statusCode).toBe(200);
      const live = await client(a, m.token).get(url);
      expect(live.statusCode, url).toBe(url.endsWith('id=1') ? 404 : 400);
      expect((await client(a, m.token).get('/api/blade-auth/oauth/logout')).statusCode).toBe(200);
      const before = counts();
      const res = await u.get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(401);
      expect(since(before)).toMatchObject({ guessed: 1, refused: 1 });
    }
  });

  it('a role taken away: the guess is stale, the list is admitted again on the live roles and refused', async () => {
    const t = await tenant('630004');
    const posts = await t.role('posts', { menus: ['system', 'post'] });
    const depts = await t.role('depts', { menus: ['system', 'dept'] });
    const m = await t.member('guess-4', [posts, depts]);
    const u = client(b, m.token);
    expect((await u.get('/api/blade-system/post/list')).statusCode).toBe(200);
    await t.ok(await t.api.post('/api/blade-user/grant', { userIds: [m.id], roleIds: [depts] }));
    const before = counts();
    const res = await u.get('/api/blade-system/post/list');
    expect(res.statusCode).toBe(403);
    expect(since(before)).toEqual({ guessed: 1, confirmed: 0, stale: 1, refused: 0 });
    // The dept list is read on the live roles, and the next one on the new guess again.
    expect((await u.get('/api/blade-system/dept/list')).statusCode).toBe(200);
    const next = counts();
    expect((await u.get('/api/blade-system/dept/list')).statusCode).toBe(200);
    expect(since(next)).toEqual({ guessed: 1, confirmed: 1, stale: 0, refused: 0 });
  });

  it('a role granted: a refusal on the guess is decided again on the live state, which admits', async () => {
    const t = await tenant('630005');
    const depts = await t.role('depts', { menus: ['system', 'dept'] });
    const posts = await t.role('posts', { menus: ['system', 'post'] });
    const m = await t.member('guess-5', [depts]);
    const u = client(b, m.token);
    expect((await u.get('/api/blade-system/dept/list')).statusCode).toBe(200);
    expect((await u.get('/api/blade-system/post/list')).statusCode).toBe(403);
    await t.ok(await t.api.post('/api/blade-user/grant', { userIds: [m.id], roleIds: [depts, posts] }));
    expect((await u.get('/api/blade-system/post/list')).statusCode).toBe(200);
  });

  it("a grant edited on another server (the tenant's cache epoch moved): stale, run again on fresh grants", async () => {
    const t = await tenant('630006');
    const r = await t.role('posts', { menus: ['system', 'post'] });
    const m = await t.member('guess-6', [r]);
    const u = client(b, m.token);
    expect((await u.get('/api/blade-system/post/list')).statusCode).toBe(200);
    await t.ok(await t.api.post('/api/blade-system/role/grant', { roleIds: [r], menuIds: await menuIds(['system']) }));
    const before = counts();
    expect((await u.get('/api/blade-system/post/list')).statusCode).toBe(403);
    expect(since(before)).toMatchObject({ guessed: 1, stale: 1 });
  });
});
