import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { shell, system } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { fromContract } from '../../platform/contract-route.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { dict as dictDef } from '@atrium/contract/resources/system/dict';
import { dictbiz as dictbizDef } from '@atrium/contract/resources/system/dictbiz';
import { dict, dictBiz } from '../../db/schema/index.ts';
import { isPlatformAdmin, PLATFORM_TENANT } from '../../platform/access.ts';
import { GLOBAL_SCOPE } from '../../platform/cache.ts';
import type { CrudTable } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { dictTexts as texts } from './messages.ts';

type DictTable = typeof dict | typeof dictBiz;

function requireKey(key: unknown): string {
  const k = typeof key === 'string' ? key.trim() : '';
  if (!k) throw badRequest(texts.keyRequired, [{ field: 'dictKey', message: texts.keyRequired }]);
  return k;
}

/**
 * One dictionary on its definition: a parent per dictionary (parentId 0, key '-1') and its entries below it, which
 * take the parent's code and keep it; sealed entries are the platform administrator's alone; `parent-list`,
 * `child-list` and `dictionary?code=` beside the generated routes.
 */
function dictionary(root: FastifyInstance, s: Services, def: typeof dictDef, table: DictTable) {
  const t = table as DictTable & CrudTable;
  const tenantCol = 'tenantId' in table ? (table as typeof dictBiz).tenantId : undefined;
  const mine = (tenantId: string) => (tenantCol ? eq(tenantCol, tenantId) : undefined);
  const global = def.scope !== 'tenant';
  const parentMissing = def.tree!.messages!.parentMissing!;
  const sealedGuard = async (auth: AuthContext, rows: Record<string, unknown>[]) => {
    if (rows.some((r) => r.isSealed === 1) && !(await isPlatformAdmin(s, auth))) throw badRequest(texts.sealed);
  };

  // The shared rules run before the hooks; two of today's answers must come first, so they run before the handler.
  // An update never moves an entry: the parent sent is dropped, so the tree rules never judge a value not written.
  const keepParent: preHandlerAsyncHookHandler = async (req) => {
    const body = req.body as { id?: string; parentId?: unknown } | undefined;
    if (body?.id) delete body.parentId;
  };
  // A sealed entry is refused before "remove its children first" (an unknown id stays the factory's 404).
  const sealedFirst: preHandlerAsyncHookHandler = async (req: FastifyRequest) => {
    const auth = requireAuth(req);
    const ids = [...new Set((req.query as { ids: string[] }).ids)];
    const rows = await withTenant(s.db, auth.tenantId, (tx) =>
      tx
        .select({ id: t.id, isSealed: t.isSealed })
        .from(t)
        .where(and(mine(auth.tenantId), eq(t.isDeleted, 0), inArray(t.id, ids))),
    );
    if (rows.length === ids.length) await sealedGuard(auth, rows);
  };
  const before = new Map([
    [`${def.base}/submit`, keepParent],
    [`${def.base}/remove`, sealedFirst],
  ]);
  root.addHook('onRoute', (route) => {
    const own = before.get(route.url);
    if (route.method !== 'POST' || !own) return;
    const given = route.preHandler ?? [];
    route.preHandler = [...(Array.isArray(given) ? given : [given]), own];
  });

  const svc = resourceRoutes(
    root,
    s,
    bindResource(def, t, {
      async beforeSave({ tx, auth, input, existing }) {
        if (existing) {
          await sealedGuard(auth, [existing]);
          if (existing.parentId !== '0')
            return { code: existing.code, parentId: existing.parentId, dictKey: requireKey(input.dictKey) };
          return { parentId: '0', dictKey: '-1' };
        }
        const parentId = input.parentId ? String(input.parentId) : '0';
        if (parentId === '0') return { dictKey: '-1' };
        const [parent] = await tx
          .select({ code: t.code })
          .from(t)
          .where(and(mine(auth.tenantId), eq(t.id, parentId), eq(t.isDeleted, 0)));
        if (!parent) throw badRequest(parentMissing, [{ field: 'parentId', message: parentMissing }]);
        return { code: parent.code, dictKey: requireKey(input.dictKey) };
      },
      // Renaming a parent's code renames its whole tree, so dictionary(code) keeps working.
      async afterSave({ tx, auth, existing, row }) {
        if (existing && existing.parentId === '0' && existing.code !== row.code) {
          await tx
            .update(t)
            .set({ code: String(row.code) })
            .where(and(mine(auth.tenantId), eq(t.code, String(existing.code)), eq(t.isDeleted, 0)));
        }
      },
      beforeRemove: ({ auth, rows }) => sealedGuard(auth, rows),
    }),
  );

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = [def.code];
  app.route({
    ...fromContract(
      global ? system.dictParentList : system.bizDictParentList,
      global ? apiSchemas.system.dictParentList : apiSchemas.system.bizDictParentList,
      tags,
    ),
    handler: async (req) => ok(await svc.list(requireAuth(req), req.query, eq(t.parentId, '0'))),
  });

  app.route({
    ...fromContract(
      global ? system.dictChildList : system.bizDictChildList,
      global ? apiSchemas.system.dictChildList : apiSchemas.system.bizDictChildList,
      tags,
    ),
    handler: async (req) => {
      const auth = requireAuth(req);
      const rows = await withTenant(s.db, auth.tenantId, async (tx) => {
        const [parent] = await tx
          .select()
          .from(t)
          .where(and(mine(auth.tenantId), eq(t.id, req.query.parentId), eq(t.isDeleted, 0)));
        if (!parent) return [];
        return tx
          .select()
          .from(t)
          .where(and(mine(auth.tenantId), eq(t.code, parent.code), eq(t.isDeleted, 0), sql`${t.parentId} <> 0`))
          .orderBy(asc(t.sort), asc(t.id));
      });
      // Nested records (a child may have children of its own), each with `children`.
      const byParent = new Map<string, ((typeof rows)[number] & { children: unknown[]; hasChildren: boolean })[]>();
      const nodes = rows.map((r) => ({ ...r, children: [] as unknown[], hasChildren: false }));
      for (const n of nodes) byParent.set(n.parentId, [...(byParent.get(n.parentId) ?? []), n]);
      for (const n of nodes) {
        n.children = byParent.get(n.id) ?? [];
        n.hasChildren = n.children.length > 0;
      }
      return ok(byParent.get(req.query.parentId) ?? []);
    },
  });

  // dictionary?code=: the entries of one dictionary, for selects; every signed-in user may read them.
  app.route({
    ...fromContract(global ? shell.dictionary : shell.bizDictionary, apiSchemas.shell.dictionary, tags),
    handler: async (req) => {
      const auth = requireAuth(req);
      const code = req.query.code;
      const cacheTenant = global ? GLOBAL_SCOPE : auth.tenantId;
      // The system dictionaries are read on the main database whatever the caller's tenant: what is cached under '*'
      // is answered to every tenant, and a moved tenant's copy may lag by a sync (docs/tenants.md "Reference data on a
      // data source").
      const entries = await s.cache.get(cacheTenant, `${def.code}:${code}`, () =>
        withTenant(s.db, global ? PLATFORM_TENANT : auth.tenantId, (tx) =>
          tx
            .select({
              id: t.id,
              parentId: t.parentId,
              code: t.code,
              dictKey: t.dictKey,
              dictValue: t.dictValue,
              dictValueEn: t.dictValueEn,
              sort: t.sort,
              remark: t.remark,
            })
            .from(t)
            .where(and(mine(auth.tenantId), eq(t.code, code), eq(t.isDeleted, 0), sql`${t.parentId} <> 0`))
            .orderBy(asc(t.sort), asc(t.id)),
        ),
      );
      // Selects show the entry in the reader's language.
      return ok(
        entries.map(({ dictValueEn, ...e }) => ({
          ...e,
          dictValue: req.lang === 'en' && dictValueEn ? dictValueEn : e.dictValue,
        })),
      );
    },
  });
}

/**
 * System dictionaries (`dict`: one set for every tenant, managed by the platform administrator) and business
 * dictionaries (`dict-biz`: each tenant's own) share this module.
 */
export default defineModule((app, s) => {
  dictionary(app, s, dictDef, dict);
  dictionary(app, s, dictbizDef, dictBiz);
});
