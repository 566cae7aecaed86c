// Issue 9 §2: replace-style grants racing each other. Rounds of concurrent grants with disjoint sets on one record:
// the final state is exactly one acknowledged set (the last to commit), never a union; every answer is a 200 or
// a 409 envelope, never a 500. On PostgreSQL the requests really overlap on the harness's pool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { client, createTestApp, loginToken, type TestApp } from './harness.ts';
import { menu, roleMenu, topMenuSetting, userRole } from '../src/db/schema/index.ts';

let t: TestApp;
let platform: string;
const ROUNDS = 10;
const RACERS = 3;

beforeAll(async () => {
  t = await createTestApp();
  platform = (await loginToken(t)).access;
});
afterAll(async () => t?.close());

/** Menus (not buttons) of the platform tree, `n` disjoint sets of `size`. */
async function menuSets(n: number, size: number): Promise<string[][]> {
  const rows = await t.database.db
    .select({ id: menu.id })
    .from(menu)
    .where(and(eq(menu.tenantId, '000000'), eq(menu.isDeleted, 0), eq(menu.category, 1)))
    .orderBy(menu.id);
  expect(rows.length).toBeGreaterThanOrEqual(n * size);
  return Array.from({ length: n }, (_, i) => rows.slice(i * size, (i + 1) * size).map((r) => r.id));
}

type Answer = { i: number; status: number; body: { code: number; success: boolean; msg: string } };

/** Fires the racers at once; answers them in the order they were acknowledged. */
async function race(send: (i: number) => Promise<{ statusCode: number; json(): unknown }>): Promise<Answer[]> {
  const order: Answer[] = [];
  await Promise.all(
    Array.from({ length: RACERS }, async (_, i) => {
      const res = await send(i);
      order.push({ i, status: res.statusCode, body: res.json() as Answer['body'] });
    }),
  );
  for (const a of order) {
    expect([200, 409], JSON.stringify(a.body)).toContain(a.status);
    expect(a.body).toMatchObject({ code: a.status, success: a.status === 200 });
  }
  return order;
}

const sorted = (xs: string[]) => [...xs].sort();

/**
 * The final set is exactly the set of one acknowledged success — never a union, never a refused request's. Which one:
 * the last to commit. Requests sent at once have no order of their own, and the order their answers arrive in is not
 * the commit order (a request that committed first can be answered last on a loaded machine: CI saw it), so the test
 * names the winner by the state, and `expectSameWinner` checks that every record of one request holds the same set.
 */
function winnerOf(order: Answer[], sets: string[][], final: string[]): number {
  const oks = order.filter((a) => a.status === 200);
  expect(oks.length).toBeGreaterThan(0);
  const winner = oks.find((a) => sorted(sets[a.i]).join() === sorted(final).join());
  expect([sorted(final), !!winner]).toEqual([sorted(final), true]);
  return winner!.i;
}
const expectLastWins = (order: Answer[], sets: string[][], final: string[]) => void winnerOf(order, sets, final);

describe('concurrent replace-style grants', () => {
  it('role grant: one acknowledged set, never a union', async () => {
    const p = client(t, platform);
    const made = await p.post('/api/blade-system/role/submit', { roleName: 'Race role', roleAlias: 'race_role' });
    expect(made.statusCode).toBe(200);
    const roleId = made.json().data.id as string;
    const sets = await menuSets(RACERS, 3);
    for (let round = 0; round < ROUNDS; round++) {
      const order = await race((i) => p.post('/api/blade-system/role/grant', { roleIds: [roleId], menuIds: sets[i] }));
      const final = await t.database.db
        .select({ id: roleMenu.menuId })
        .from(roleMenu)
        .where(eq(roleMenu.roleId, roleId));
      expectLastWins(
        order,
        sets,
        final.map((r) => r.id),
      );
    }
  });

  it('top-menu grant: one acknowledged set, never a union', async () => {
    const p = client(t, platform);
    const made = await p.post('/api/blade-system/topmenu/submit', { name: 'Race top', code: 'race_top', sort: 1 });
    expect(made.statusCode).toBe(200);
    const topMenuId = made.json().data.id as string;
    const sets = await menuSets(RACERS, 3);
    for (let round = 0; round < ROUNDS; round++) {
      const order = await race((i) =>
        p.post('/api/blade-system/topmenu/grant', { topMenuIds: [topMenuId], menuIds: sets[i] }),
      );
      const final = await t.database.db
        .select({ id: topMenuSetting.menuId })
        .from(topMenuSetting)
        .where(eq(topMenuSetting.topMenuId, topMenuId));
      expectLastWins(
        order,
        sets,
        final.map((r) => r.id),
      );
    }
  });

  it('user grant: one acknowledged set of roles for both users, never a union', async () => {
    const p = client(t, platform);
    const roles: string[] = [];
    for (let i = 0; i < RACERS; i++) {
      const r = await p.post('/api/blade-system/role/submit', { roleName: `Race ${i}`, roleAlias: `race_user_${i}` });
      roles.push(r.json().data.id);
    }
    const users: string[] = [];
    for (const account of ['race_u1', 'race_u2']) {
      const u = await p.post('/api/blade-user/submit', { account, realName: 'R', password: 'Racing#2026xy' });
      expect(u.statusCode).toBe(200);
      users.push(u.json().data.id);
    }
    const sets = roles.map((r) => [r]);
    for (let round = 0; round < ROUNDS; round++) {
      // Both users in every request, listed in a different order each time.
      const order = await race((i) =>
        p.post('/api/blade-user/grant', { userIds: i % 2 ? [...users].reverse() : users, roleIds: sets[i] }),
      );
      // Both users hold the set of the same request (one transaction wrote them both).
      const winners: number[] = [];
      for (const u of users) {
        const final = await t.database.db
          .select({ id: userRole.roleId })
          .from(userRole)
          .where(and(eq(userRole.userId, u), inArray(userRole.roleId, roles)));
        winners.push(
          winnerOf(
            order,
            sets,
            final.map((r) => r.id),
          ),
        );
      }
      expect(winners[1]).toBe(winners[0]);
    }
  });
});
