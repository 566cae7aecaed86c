import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deskApi } from '@atrium/contract';
import { deskSchemas } from '@atrium/contract/schemas';
import { notice as noticeDef } from '@atrium/contract/resources/desk/notice';
import { declared } from '../../platform/declared.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { noticeTexts as texts } from './messages.ts';
import { sanitiseNotice, showsSomething } from './sanitise.ts';
import { bellOf, markSeen, readNotice } from './service.ts';
import { notice } from './table.ts';

/**
 * 通知公告 (docs/notices.md): the definition's CRUD with the content sanitised on every save, and the bell, its
 * "seen" mark and the read view (service.ts).
 */
export default defineModule((root, s) => {
  resourceRoutes(
    root,
    s,
    bindResource(noticeDef, notice, {
      async beforeSave({ input }) {
        if (input.content === undefined || input.content === null) return {};
        const content = sanitiseNotice(String(input.content));
        if (!showsSomething(content))
          throw badRequest(texts.emptyContent, [{ field: 'content', message: texts.emptyContent }]);
        return { content };
      },
    }),
  );

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['desk'];
  app.route({
    ...declared(deskApi.bell, deskSchemas.bell, tags),
    handler: async (req) => ok(await bellOf(s, requireAuth(req))),
  });
  app.route({
    ...declared(deskApi.bellSeen, deskSchemas.bellSeen, tags),
    handler: async (req) => ok(await markSeen(s, requireAuth(req)), texts.seen),
  });
  app.route({
    ...declared(deskApi.read, deskSchemas.read, tags),
    handler: async (req) => ok(await readNotice(s, requireAuth(req), req.query.id)),
  });
});
