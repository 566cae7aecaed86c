import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { encodeMsg } from '@atrium/contract';
import { errorLog } from '../../db/schema/index.ts';
import { newId } from '../../db/ids.ts';
import { ok } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { logTexts } from './messages.ts';

const cut = (n: number) =>
  z
    .string()
    .max(100_000)
    .transform((v) => v.slice(0, n));
const entry = z.object({
  type: z.string().max(32).default('error'),
  url: cut(1000).optional(),
  message: cut(4000).optional(),
  stack: cut(20000).optional(),
  info: cut(4000).optional(),
  // The client's clock as it reads it: at most the column's 64 characters (longer is a 400, never a database error).
  time: z
    .union([z.string().max(64, encodeMsg(logTexts.timeTooLong)), z.number()])
    .transform(String)
    .optional(),
});

/** POST /api/blade-log/error-logs: the console's local error log, sent by the user from the error-log dialog. */
export function logRoutes(root: FastifyInstance, s: Services) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/blade-log/error-logs',
    {
      schema: { tags: ['log'], body: z.union([z.array(entry).max(200), z.object({ logs: z.array(entry).max(200) })]) },
    },
    async (req) => {
      const auth = requireAuth(req);
      const list = Array.isArray(req.body) ? req.body : req.body.logs;
      if (list.length) {
        await withTenant(s.db, auth.tenantId, (tx) =>
          tx.insert(errorLog).values(
            list.map((e) => ({
              id: newId(),
              tenantId: auth.tenantId,
              userId: auth.userId,
              type: e.type,
              url: e.url ?? null,
              message: [e.message, e.info].filter(Boolean).join('\n') || null,
              stack: e.stack ?? null,
              clientTime: e.time ?? null,
              userAgent: req.headers['user-agent']?.slice(0, 500) ?? null,
              requestId: req.id,
              createTime: s.now(),
            })),
          ),
        );
      }
      return ok(list.length, logTexts.sent);
    },
  );
}
