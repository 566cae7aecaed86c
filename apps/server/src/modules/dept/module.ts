import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { dept as deptDef } from '@atrium/contract/resources/system/dept';
import { dept, user } from '../../db/schema/index.ts';
import { badRequest } from '../../platform/errors.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { deptTexts as texts } from './messages.ts';

const parentMissing = deptDef.tree!.messages!.parentMissing!;

/**
 * Departments: the tree rules (parent visible, no cycle, children block removal) come from the definition; the
 * module keeps `ancestors` ("0,1,5"), which the data scope "own department and below" reads, and refuses removing a
 * department that still has users.
 */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(deptDef, dept, {
      scope: { owner: dept.createUser, dept: dept.id },
      output: { ancestors: { type: ['string', 'null'] } },
      async beforeSave({ tx, auth, input, scope }) {
        // What the body's defaults always did, on update too: no parent is the root, no category 1, no sort 0.
        const parentId = input.parentId ? String(input.parentId) : '0';
        const values = { parentId, deptCategory: input.deptCategory ?? 1, sort: input.sort ?? 0 };
        if (parentId === '0') return { ...values, ancestors: '0' };
        // The shared rules have just checked the parent, in this transaction; its ancestors are what is needed.
        const [parent] = await tx
          .select({ id: dept.id, ancestors: dept.ancestors })
          .from(dept)
          .where(and(eq(dept.tenantId, auth.tenantId), eq(dept.id, parentId), eq(dept.isDeleted, 0), scope));
        if (!parent) throw badRequest(parentMissing, [{ field: 'parentId', message: parentMissing }]);
        return { ...values, ancestors: `${parent.ancestors},${parent.id}` };
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
      async beforeRemove({ tx, ids, auth }) {
        const [{ n }] = await tx
          .select({ n: count() })
          .from(user)
          .where(and(eq(user.tenantId, auth.tenantId), eq(user.isDeleted, 0), inArray(user.deptId, ids)));
        if (n > 0) throw badRequest(texts.hasUsers(n));
      },
    }),
  );
});
