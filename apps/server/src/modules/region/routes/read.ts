import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { regionApi } from '@atrium/contract';
import { apiSchemas, regionCodeParam } from '@atrium/contract/schemas';
import { region as def, REGION_ROOT } from '@atrium/contract/resources/system/region';
import { fromContract } from '../../../platform/contract-route.ts';
import { ok } from '../../../platform/envelope.ts';
import { requireAuth } from '../../../platform/guard.ts';
import { perAddress } from '../../../platform/rate-limit.ts';
import type { Services } from '../../../platform/services.ts';
import { regionTexts as texts } from '../messages.ts';
import { namesAsked, parentsAmong, regionNames } from '../service.ts';
import { region } from '../table.ts';

const tags = [def.code];

/**
 * The region reads of every screen, under the definition's base: `lazy-tree?parentCode=` (one level, public) and
 * `names?codes=` (the region cells of lists and details).
 */
export const readRoutes: FastifyPluginAsync<{ s: Services }> = async (plain, { s }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();

  // One level of the tree, for the region screen and the region pickers of every screen — the public registration
  // page's too: the national list is public knowledge, so no login is needed (at most 300 calls a minute per client
  // address, per process).
  app.get(
    '/lazy-tree',
    {
      config: { auth: 'none', rateLimit: perAddress(300, 60_000, texts.tooMany) },
      schema: { tags, querystring: z.object({ parentCode: regionCodeParam.default(REGION_ROOT) }) },
    },
    async (req) => {
      const nodes = await s.db.transaction(async (tx) => {
        const rows = await tx
          .select({ code: region.code, parentCode: region.parentCode, name: region.name, level: region.level })
          .from(region)
          .where(and(eq(region.parentCode, req.query.parentCode), eq(region.isDeleted, 0)))
          .orderBy(asc(region.sort), asc(region.code));
        const parents = await parentsAmong(
          tx,
          rows.map((r) => r.code),
        );
        return rows.map((r) => ({
          id: r.code,
          parentId: r.parentCode,
          title: r.name,
          key: r.code,
          value: r.code,
          level: r.level,
          hasChildren: parents.has(r.code),
          children: [],
        }));
      });
      return ok(nodes);
    },
  );

  // Names of some regions by code, for the region cells of every list and detail (docs/web.md "Field types"): one
  // call per page of records, at most REGION_NAMES_MAX codes. Every signed-in user: the national list is public knowledge
  // (the tree's levels need no login at all); no permission code, since any screen with a region field asks.
  app.route({
    ...fromContract(regionApi.names, apiSchemas.region.names, tags, app.prefix),
    handler: async (req) => {
      requireAuth(req);
      const codes = namesAsked(req.query.codes);
      return ok(await s.db.transaction((tx) => regionNames(tx, codes)));
    },
  });
};
