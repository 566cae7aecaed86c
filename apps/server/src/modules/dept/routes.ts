import type { FastifyInstance } from 'fastify';
import { and, asc, count, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { dept, user } from '../../db/schema/index.ts';
import { crudRoutes, parentParam } from '../../platform/crud.ts';
import { badRequest } from '../../platform/errors.ts';
import { optionalText, requiredText } from '../../platform/fields.ts';
import type { Services } from '../../platform/services.ts';

const body = z.object({
  parentId: parentParam.default('0'),
  deptName: requiredText('请输入机构名称', 'Enter the department name', 45),
  fullName: optionalText(45),
  deptCategory: z.coerce.number().int().min(1).max(99).default(1),
  sort: z.coerce.number().int().min(0).max(999999).default(0),
  remark: optionalText(255),
});

const texts = {
  parentMissing: { zh: '上级机构不存在', en: 'The parent department does not exist' },
  cycle: { zh: '上级机构不能是自己或自己的下级', en: 'A department cannot move below itself' },
  hasChildren: { zh: '请先删除下级机构', en: 'Remove its sub-departments first' },
  hasUsers: (n: number) => ({ zh: `机构下仍有 ${n} 个用户，不能删除`, en: `The department still has ${n} user(s)` }),
};

/** Departments: a tree kept by `ancestors` ("0,1,5"), which the data scope "own department and below" reads. */
export function deptRoutes(app: FastifyInstance, s: Services) {
  return crudRoutes(app, s, {
    entity: 'dept',
    table: dept,
    base: '/api/blade-system/dept',
    codes: { view: 'dept', add: 'dept_add', edit: 'dept_edit', remove: 'dept_delete' },
    body,
    list: {
      filters: {
        deptName: { column: dept.deptName, op: 'like' },
        fullName: { column: dept.fullName, op: 'like' },
        deptCategory: { column: dept.deptCategory, op: 'eq' },
        parentId: { column: dept.parentId, op: 'eq' },
      },
      sorts: { sort: dept.sort, deptName: dept.deptName, createTime: dept.createTime },
      defaultSort: [asc(dept.sort), asc(dept.id)],
      createTime: dept.createTime,
    },
    scope: { code: 'dept', owner: dept.createUser, dept: dept.id },
    tree: { parentId: dept.parentId, title: 'deptName', sort: dept.sort, readAlso: ['user'] },
    async beforeSave({ tx, auth, input, existing, scope }) {
      if (input.parentId === '0') return { ancestors: '0' };
      // The parent must be a department the caller can see (tenant and data scope).
      const [parent] = await tx
        .select()
        .from(dept)
        .where(and(eq(dept.tenantId, auth.tenantId), eq(dept.id, input.parentId), eq(dept.isDeleted, 0), scope));
      if (!parent) throw badRequest(texts.parentMissing, [{ field: 'parentId', message: texts.parentMissing.zh }]);
      if (existing && (parent.id === existing.id || `,${parent.ancestors},`.includes(`,${existing.id},`))) {
        throw badRequest(texts.cycle, [{ field: 'parentId', message: texts.cycle.zh }]);
      }
      return { ancestors: `${parent.ancestors},${parent.id}` };
    },
    // A move rewrites the ancestors of the whole subtree in the same transaction.
    async afterSave({ tx, auth, existing, row }) {
      if (!existing || existing.ancestors === row.ancestors) return;
      const oldPrefix = `${existing.ancestors},${row.id}`;
      const newPrefix = `${row.ancestors},${row.id}`;
      await tx
        .update(dept)
        .set({ ancestors: sql`${newPrefix} || substr(${dept.ancestors}, ${oldPrefix.length + 1})` })
        .where(
          and(
            eq(dept.tenantId, auth.tenantId),
            sql`(${dept.ancestors} = ${oldPrefix} or ${dept.ancestors} like ${`${oldPrefix},%`})`,
          ),
        );
    },
    async beforeRemove(tx, ids, auth) {
      const [{ kids }] = await tx
        .select({ kids: count() })
        .from(dept)
        .where(
          and(
            eq(dept.tenantId, auth.tenantId),
            eq(dept.isDeleted, 0),
            inArray(dept.parentId, ids),
            notInArray(dept.id, ids),
          ),
        );
      if (kids > 0) throw badRequest(texts.hasChildren);
      const [{ n }] = await tx
        .select({ n: count() })
        .from(user)
        .where(and(eq(user.tenantId, auth.tenantId), eq(user.isDeleted, 0), inArray(user.deptId, ids)));
      if (n > 0) throw badRequest(texts.hasUsers(n));
    },
  });
}
