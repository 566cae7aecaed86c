import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import { fill, msg, type Msg } from '@atrium/contract';
import { regionCodeParam } from '@atrium/contract/schemas';
import {
  region as def,
  REGION_DIGITS,
  REGION_LEVELS,
  REGION_ROOT,
  regionLevel,
  regionParent,
} from '@atrium/contract/resources/system/region';
import { idList, idParam } from '../../platform/crud.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { regionTexts as texts } from './messages.ts';
import { fileRoutes } from './routes/files.ts';
import { readRoutes } from './routes/read.ts';
import { liveByCodes, placement, regionInUse, regionUsedBy, renameBelow, type RegionRow } from './service.ts';
import { region } from './table.ts';

const fieldError = (field: string, text: Msg) => badRequest(text, [{ field, message: text }]);

/**
 * detail?code= and remove?id= beside the generated id forms: the generated routes take one more name for their
 * record, resolved before their handler (the way the dictionaries add their own checks to generated routes).
 */
function byCodeOrId(root: FastifyInstance, s: Services) {
  const byCode: preHandlerAsyncHookHandler = async (req) => {
    const q = req.query as { id?: string; code?: string };
    if (q.id) return;
    if (!q.code) throw fieldError('code', texts.codeOrId);
    const auth = requireAuth(req);
    const [row] = await withTenant(s.db, auth.tenantId, (tx) =>
      tx
        .select({ id: region.id })
        .from(region)
        .where(and(eq(region.code, q.code!), eq(region.isDeleted, 0))),
    );
    if (!row) throw notFound();
    q.id = row.id;
  };
  const oneId: preHandlerAsyncHookHandler = async (req) => {
    const q = req.query as { id?: string; ids?: string[] };
    if (!q.ids?.length && q.id) q.ids = [q.id];
    if (!q.ids?.length) throw fieldError('ids', msg('idsRequired'));
  };
  const own = new Map([
    [
      `GET ${def.base}/detail`,
      { query: z.object({ id: idParam.optional(), code: regionCodeParam.optional() }), pre: byCode },
    ],
    [`POST ${def.base}/remove`, { query: z.object({ ids: idList.optional(), id: idParam.optional() }), pre: oneId }],
  ]);
  root.addHook('onRoute', (route) => {
    const mine = own.get(`${String(route.method)} ${route.url}`);
    if (!mine || !route.schema) return;
    route.schema.querystring = mine.query;
    const given = route.preHandler ?? [];
    route.preHandler = [mine.pre, ...(Array.isArray(given) ? given : [given])];
  });
}

/** The definition's rules: a code under its parent's, the name columns of the levels, no removal of a region in use. */
function regionBinding(s: Services) {
  return bindResource(def, region, {
    async beforeSave({ tx, input, existing }) {
      const name = String(input.name ?? '').trim();
      if (existing) {
        // The code and the parent never change (createOnly): only the region's own name column follows its name.
        return ownName(existing, name);
      }
      const code = String(input.code ?? '');
      const given = input.parentCode ? String(input.parentCode) : '';
      const wanted = regionParent(code);
      if (given && given !== wanted) {
        if (given === REGION_ROOT) throw fieldError('code', texts.topLevel);
        const digits = regionLevel(given) ? codeDigitsBelow(given) : 0;
        if (!digits) throw fieldError('parentCode', texts.parentMissing);
        throw fieldError('code', fill(texts.childCode, { parent: given, digits }));
      }
      let parent: RegionRow | null = null;
      if (wanted !== REGION_ROOT) {
        parent = (await liveByCodes(tx, [wanted])).get(wanted) ?? null;
        if (!parent) throw fieldError('parentCode', texts.parentMissing);
      }
      return placement(parent, code, name);
    },
    async afterSave({ tx, existing, row }) {
      if (existing && existing.name !== row.name) await renameBelow(tx, String(row.code), String(row.name));
    },
    async beforeRemove({ tx, ids, rows }) {
      const codes = rows.map((r) => String(r.code));
      const [child] = await tx
        .select({ id: region.id })
        .from(region)
        .where(and(inArray(region.parentCode, codes), notInArray(region.id, ids), eq(region.isDeleted, 0)))
        .limit(1);
      if (child) throw badRequest(texts.hasChildren);
      // Users' and clients' regions: tenant rows under row-level security, so asked of security-definer
      // functions that answer one boolean per code (migration 0023_region_used_by_users, docs/clients.md).
      for (const r of rows) {
        const name = String(r.name ?? r.code);
        if (await regionUsedBy(tx, 'users', String(r.code))) throw badRequest(fill(texts.usedByUsers, { name }));
        if (await regionUsedBy(tx, 'clients', String(r.code))) throw badRequest(fill(texts.usedByClients, { name }));
      }
      const used = await regionInUse(s, tx, codes);
      if (used) throw badRequest(fill(texts.inUse, { name: String(rows.find((r) => r.code === used)?.name ?? used) }));
    },
  });
}

/**
 * 行政区划 (docs/product.md "Regions", docs/system-api.md): the generated list, detail, submit and remove on the
 * definition — detail also by `code`, remove also by one `id` — plus `lazy-tree?parentCode=` for pickers (public),
 * `names?codes=` for the region cells of lists and details (every signed-in user), `export` (xlsx of a subtree or all) and `import` (xlsx, upsert by code, all rows or none).
 */
export default defineModule(async (root, s) => {
  byCodeOrId(root, s);
  resourceRoutes(root, s, regionBinding(s));
  await root.register(readRoutes, { prefix: def.base, s });
  await root.register(fileRoutes, { prefix: def.base, s });
});

/** The digits of a child's code below a parent of this code. */
function codeDigitsBelow(parent: string): number {
  return REGION_DIGITS[regionLevel(parent)] ?? 0;
}

/** On update: the region's own level name column takes its (possibly new) name. */
function ownName(existing: Record<string, unknown>, name: string): Record<string, unknown> {
  const level = Number(existing.level);
  return level >= 1 && level <= 5 ? { [nameColumnKey(level)]: name } : {};
}
const nameColumnKey = (level: number) => `${REGION_LEVELS[level - 1]}Name`;
