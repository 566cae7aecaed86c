import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bearer, createTestApp, tenantUser, type TestApp } from './harness.ts';
import { auditLog, post } from '../src/db/schema/index.ts';

let t: TestApp;
let a: string; // tenant A administrator of posts
let b: string; // tenant B administrator of posts
let viewer: string; // tenant A, may only view
const ALL = ['post', 'post_add', 'post_edit', 'post_delete', 'post_view'];

beforeAll(async () => {
  t = await createTestApp();
  a = await tenantUser(t, '300001', 'a-admin', ALL);
  b = await tenantUser(t, '300002', 'b-admin', ALL);
  viewer = await tenantUser(t, '300001', 'a-viewer', ['post']);
});
afterAll(async () => t?.close());

const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const post_ = (url: string, token: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const submit = (token: string, body: object) => post_('/api/blade-system/post/submit', token, body);

describe('CRUD factory (posts)', () => {
  it('inserts, lists with paging and filters, and details a record', async () => {
    for (let i = 1; i <= 12; i++) {
      const res = await submit(a, {
        category: 1,
        postCode: `p${i}`,
        postName: i % 2 ? `经理${i}` : `职员${i}`,
        sort: i,
      });
      expect(res.json()).toMatchObject({ code: 200, msg: '新增成功', data: { tenantId: '300001', version: 1 } });
    }
    const page = (await get('/api/blade-system/post/list?current=2&size=5&ascs=sort', a)).json().data;
    expect(page).toMatchObject({ total: 12, size: 5, current: 2, pages: 3 });
    expect(page.records.map((r: { postCode: string }) => r.postCode)).toEqual(['p6', 'p7', 'p8', 'p9', 'p10']);
    const filtered = (await get(`/api/blade-system/post/list?postName=${encodeURIComponent('经理')}`, a)).json().data;
    expect(filtered.total).toBe(6);
    const one = filtered.records[0];
    expect((await get(`/api/blade-system/post/detail?id=${one.id}`, a)).json().data.postCode).toBe(one.postCode);
  });

  it('refuses unknown filters and sorts with a 400 naming them', async () => {
    const f = await get('/api/blade-system/post/list?password=1', a);
    expect(f.statusCode).toBe(400);
    expect(f.json().msg).toContain('password');
    const s = await get('/api/blade-system/post/list?descs=tenant_id', a);
    expect(s.statusCode).toBe(400);
  });

  it('refuses a duplicate code by the database constraint, with the field', async () => {
    const res = await submit(a, { category: 1, postCode: 'p1', postName: 'dup' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: '岗位编号已存在', data: [{ field: 'postCode' }] });
    // Another tenant may use the same code.
    expect((await submit(b, { category: 1, postCode: 'p1', postName: 'B 的岗位' })).statusCode).toBe(200);
  });

  it('answers 409 to a stale version and keeps the newer data', async () => {
    const created = (await submit(a, { category: 1, postCode: 'v1', postName: '原名' })).json().data;
    const first = await submit(a, { id: created.id, version: 1, category: 1, postCode: 'v1', postName: '第一次' });
    expect(first.json()).toMatchObject({ msg: '更新成功', data: { version: 2, postName: '第一次' } });
    const second = await submit(a, { id: created.id, version: 1, category: 1, postCode: 'v1', postName: '第二次' });
    expect(second.statusCode).toBe(409);
    expect(second.json().msg).toBe('数据已被他人修改，请刷新后重试');
    expect((await get(`/api/blade-system/post/detail?id=${created.id}`, a)).json().data.postName).toBe('第一次');
  });

  it('ignores tenantId and isDeleted in a body', async () => {
    const res = await submit(a, {
      category: 1,
      postCode: 'forge',
      postName: 'x',
      tenantId: '300002',
      isDeleted: 1,
    } as object);
    expect(res.json().data).toMatchObject({ tenantId: '300001', isDeleted: 0 });
  });

  it('keeps tenants apart on every path: list, detail, update, remove', async () => {
    const bPost = (await submit(b, { category: 1, postCode: 'secret', postName: 'B 秘密' })).json().data;
    const listA = (await get('/api/blade-system/post/list?size=200', a)).json().data;
    expect(listA.records.map((r: { id: string }) => r.id)).not.toContain(bPost.id);
    expect(listA.records.every((r: { tenantId: string }) => r.tenantId === '300001')).toBe(true);
    expect((await get(`/api/blade-system/post/detail?id=${bPost.id}`, a)).statusCode).toBe(404);
    expect((await submit(a, { id: bPost.id, category: 1, postCode: 'secret', postName: 'hacked' })).statusCode).toBe(
      404,
    );
    expect((await post_(`/api/blade-system/post/remove?ids=${bPost.id}`, a)).statusCode).toBe(404);
    const still = (await get(`/api/blade-system/post/detail?id=${bPost.id}`, b)).json().data;
    expect(still).toMatchObject({ postName: 'B 秘密', isDeleted: 0 });
  });

  it('removes all the ids or none', async () => {
    const mine = (await get('/api/blade-system/post/list?postCode=p1', a))
      .json()
      .data.records.map((r: { id: string }) => r.id);
    const bId = (await get('/api/blade-system/post/list?size=1', b)).json().data.records[0].id;
    const mixed = await post_(`/api/blade-system/post/remove?ids=${[...mine, bId].join(',')}`, a);
    expect(mixed.statusCode).toBe(404);
    expect((await get('/api/blade-system/post/list?postCode=p1', a)).json().data.total).toBe(mine.length);
    const okRes = await post_(`/api/blade-system/post/remove?ids=${mine.join(',')}`, a);
    expect(okRes.json()).toMatchObject({ code: 200, msg: '删除成功' });
    expect((await get('/api/blade-system/post/list?postCode=p1', a)).json().data.total).toBe(0);
    const [row] = await t.services.db.select().from(post).where(eq(post.id, mine[0]));
    expect(row.isDeleted).toBe(1);
    const audits = await t.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'post'), eq(auditLog.entityId, mine[0])));
    expect(audits.map((x) => x.action).sort()).toEqual(['delete', 'insert']);
  });

  it('refuses bad ids with a 400', async () => {
    expect((await post_('/api/blade-system/post/remove?ids=1,abc', a)).statusCode).toBe(400);
    expect((await post_('/api/blade-system/post/remove', a)).statusCode).toBe(400);
    expect((await get('/api/blade-system/post/detail?id=1%27', a)).statusCode).toBe(400);
  });

  it('checks permission codes on the server: a viewer may list but not add, edit or remove', async () => {
    expect((await get('/api/blade-system/post/list', viewer)).statusCode).toBe(200);
    const add = await submit(viewer, { category: 1, postCode: 'nope', postName: 'x' });
    expect(add.statusCode).toBe(403);
    expect(add.json().msg).toContain('post_add');
    const someId = (await get('/api/blade-system/post/list', viewer)).json().data.records[0].id;
    expect((await submit(viewer, { id: someId, category: 1, postCode: 'x', postName: 'x' })).statusCode).toBe(403);
    expect((await post_(`/api/blade-system/post/remove?ids=${someId}`, viewer)).statusCode).toBe(403);
  });
});
