import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { post, user } from '../../db/schema/index.ts';
import { crudRoutes } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';

const body = z.object({
  category: z.coerce.number().int().min(1).max(99),
  postCode: z.string().trim().min(1, '请输入岗位编号').max(12),
  postName: z.string().trim().min(1, '请输入岗位名称').max(64),
  sort: z.coerce.number().int().min(0).max(99999).default(0),
  remark: z.string().max(255).optional().nullable(),
});

/** Posts (岗位): the first module on the CRUD factory. */
export function postRoutes(root: FastifyInstance, s: Services) {
  crudRoutes(root, s, {
    entity: 'post',
    table: post,
    base: '/api/blade-system/post',
    codes: { view: 'post', add: 'post_add', edit: 'post_edit', remove: 'post_delete' },
    body,
    list: {
      filters: {
        postCode: { column: post.postCode, op: 'like' },
        postName: { column: post.postName, op: 'like' },
        category: { column: post.category, op: 'eq' },
      },
      sorts: { sort: post.sort, postCode: post.postCode, createTime: post.createTime },
      defaultSort: [asc(post.sort)],
      createTime: post.createTime,
    },
    unique: { post_code_uq: { field: 'postCode', text: { zh: '岗位编号已存在', en: 'The post code already exists' } } },
    async beforeRemove(tx, ids, auth) {
      const [{ n }] = await tx
        .select({ n: count() })
        .from(user)
        .where(and(eq(user.tenantId, auth.tenantId), eq(user.isDeleted, 0), inArray(user.postId, ids)));
      if (n > 0)
        throw badRequest({ zh: `岗位仍有 ${n} 个用户在用，不能删除`, en: `The post is still held by ${n} user(s)` });
    },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/blade-system/post/select',
    { config: { permission: ['post', 'user'] }, schema: { tags: ['post'] } },
    async (req) => {
      const auth = requireAuth(req);
      return ok(
        await withTenant(s.db, auth.tenantId, (tx) =>
          tx
            .select({ id: post.id, postCode: post.postCode, postName: post.postName })
            .from(post)
            .where(and(eq(post.tenantId, auth.tenantId), eq(post.isDeleted, 0)))
            .orderBy(asc(post.sort)),
        ),
      );
    },
  );
}
