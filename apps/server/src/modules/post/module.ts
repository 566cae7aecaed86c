import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { fill } from '@atrium/contract';
import { post as postDef } from '@atrium/contract/resources/system/post';
import { post, user } from '../../db/schema/index.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { postTexts } from './messages.ts';

/** Posts (岗位): the definition, plus the refusal to remove a post still held and the picker's `select`. */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(postDef, post, {
      async beforeRemove({ tx, ids, auth }) {
        const [{ n }] = await tx
          .select({ n: count() })
          .from(user)
          .where(and(eq(user.tenantId, auth.tenantId), eq(user.isDeleted, 0), inArray(user.postId, ids)));
        if (n > 0) throw badRequest(fill(postTexts.inUse, { n }));
      },
    }),
  );

  app.get(
    `${postDef.base}/select`,
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
});
