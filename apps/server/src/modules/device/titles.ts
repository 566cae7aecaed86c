import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { dictioncary } from '@atrium/contract/resources/device/dictioncary';
import type { Envelope } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { TreeNode } from '../../platform/tree.ts';
import { deviceDict } from './table.ts';

/** The generated tree routes of the device dictionary whose node titles follow the caller's language. */
const TITLED = new Set([`GET ${dictioncary.base}/tree`, `GET ${dictioncary.base}/lazy-tree`]);

/**
 * The device dictionary's `tree` and `lazy-tree` titles in the caller's language, like `listAll` (docs/devices.md
 * "Dictionary names"): the generated routes title a node with the entry's name; in English (`Accept-Language: en`)
 * an entry with an English name is titled with it. Call before the dictionary's routes are registered.
 */
export function englishTreeTitles(root: FastifyInstance, s: Services): void {
  root.addHook('onRoute', (route) => {
    if (!TITLED.has(`${String(route.method)} ${route.url}`)) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function titled(req, reply) {
      const answer = (await handler.call(this, req, reply)) as Envelope<TreeNode[]>;
      if (req.lang !== 'en' || !Array.isArray(answer?.data)) return answer;
      const nodes: TreeNode[] = [];
      const walk = (level: TreeNode[]) => {
        for (const n of level) {
          nodes.push(n);
          if (Array.isArray(n.children)) walk(n.children);
        }
      };
      walk(answer.data);
      if (!nodes.length) return answer;
      const auth = requireAuth(req);
      const rows = await withTenant(s.db, auth.tenantId, (tx) =>
        tx
          .select({ id: deviceDict.id, nameEn: deviceDict.nameEn })
          .from(deviceDict)
          .where(
            and(
              eq(deviceDict.tenantId, auth.tenantId),
              inArray(
                deviceDict.id,
                nodes.map((n) => n.id),
              ),
              isNotNull(deviceDict.nameEn),
            ),
          ),
      );
      const english = new Map(rows.filter((r) => r.nameEn?.trim()).map((r) => [r.id, r.nameEn!]));
      for (const n of nodes) n.title = english.get(n.id) ?? n.title;
      return answer;
    };
  });
}
