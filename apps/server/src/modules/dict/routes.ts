import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, count, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { dict, dictBiz } from '../../db/schema/index.ts';
import { isPlatformAdmin } from '../../platform/access.ts';
import { crudRoutes, parentParam, type CrudTable, type Row } from '../../platform/crud.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest } from '../../platform/errors.ts';
import { fieldText, flag, optionalText, requiredInt, requiredText } from '../../platform/fields.ts';
import { requireAuth } from '../../platform/guard.ts';
import type { Services } from '../../platform/services.ts';
import { withTenant } from '../../platform/tenant-db.ts';

/** Spec §3 dictionary parent / child and the messages of §5. A parent has parentId 0 and dictKey '-1'. */
const body = z.object({
  parentId: parentParam.default('0'),
  code: requiredText('请输入字典编号', 'Enter the dictionary code', 255),
  dictKey: z.string().trim().max(255).optional().nullable(),
  dictValue: requiredText('请输入字典名称', 'Enter the dictionary name', 255),
  sort: requiredInt('请输入字典排序', 'Enter the sort order', 0, 999999),
  isSealed: flag('请选择字典封存', 'Choose whether it is sealed'),
  remark: optionalText(255),
});
type Body = z.infer<typeof body>;

const texts = {
  keyRequired: { zh: fieldText('请输入字典键值', 'Enter the dictionary key'), en: 'Enter the dictionary key' },
  sealed: { zh: '字典已封存，不能修改或删除', en: 'The dictionary entry is sealed: it cannot be changed or removed' },
  parentMissing: { zh: '上级字典不存在', en: 'The parent dictionary does not exist' },
  hasChildren: { zh: '请先删除子字典', en: 'Remove its child entries first' },
  duplicate: { zh: '字典键值已存在', en: 'The dictionary key already exists' },
} as const;

type DictTable = typeof dict | typeof dictBiz;

/**
 * System dictionaries (`dict`, global, written by the platform administrator) and business dictionaries
 * (`dict-biz`, per tenant) share one module: parent table + child tree (spec §2 dictionary management).
 */
function dictModule(
  root: FastifyInstance,
  s: Services,
  opts: { table: DictTable; base: string; global: boolean; code: string; unique: string },
) {
  const t = opts.table as DictTable & CrudTable;
  const tenantCol = 'tenantId' in opts.table ? (opts.table as typeof dictBiz).tenantId : undefined;
  const mine = (tenantId: string) => (tenantCol ? eq(tenantCol, tenantId) : undefined);
  const sealedGuard = async (auth: Parameters<typeof isPlatformAdmin>[1], rows: Row[]) => {
    if (rows.some((r) => r.isSealed === 1) && !(await isPlatformAdmin(s, auth))) throw badRequest(texts.sealed);
  };

  const svc = crudRoutes(root, s, {
    entity: opts.code,
    table: t,
    base: opts.base,
    global: opts.global,
    platform: opts.global,
    codes: { view: opts.code, add: `${opts.code}_add`, edit: `${opts.code}_edit`, remove: `${opts.code}_delete` },
    body,
    list: {
      filters: {
        code: { column: t.code, op: 'like' },
        dictValue: { column: t.dictValue, op: 'like' },
        dictKey: { column: t.dictKey, op: 'eq' },
        parentId: { column: t.parentId, op: 'eq' },
      },
      sorts: { sort: t.sort, code: t.code, createTime: t.createTime },
      defaultSort: [asc(t.sort), asc(t.id)],
      createTime: t.createTime,
    },
    tree: { parentId: t.parentId, title: 'dictValue', sort: t.sort },
    unique: { [opts.unique]: { field: 'dictKey', text: texts.duplicate } },
    async beforeSave({ tx, auth, input, existing }) {
      const b = input as Body;
      if (existing) {
        await sealedGuard(auth, [existing]);
        // A child's code and parent are fixed (spec §5); a parent keeps parentId 0.
        if (existing.parentId !== '0')
          return { code: existing.code, parentId: existing.parentId, dictKey: requireKey(b.dictKey) };
        return { parentId: '0', dictKey: '-1' };
      }
      if (b.parentId === '0') return { dictKey: '-1' };
      const [parent] = await tx
        .select()
        .from(t)
        .where(and(mine(auth.tenantId), eq(t.id, b.parentId), eq(t.isDeleted, 0)));
      if (!parent) throw badRequest(texts.parentMissing, [{ field: 'parentId', message: texts.parentMissing.zh }]);
      return { code: parent.code, dictKey: requireKey(b.dictKey) };
    },
    async afterSave({ tx, auth, existing, row }) {
      // Renaming a parent's code renames its whole tree, so dictionary(code) keeps working.
      if (existing && existing.parentId === '0' && existing.code !== row.code) {
        await tx
          .update(t)
          .set({ code: String(row.code) })
          .where(and(mine(auth.tenantId), eq(t.code, String(existing.code)), eq(t.isDeleted, 0)));
      }
    },
    async beforeRemove(tx, ids, auth, rows) {
      await sealedGuard(auth, rows);
      const [{ n }] = await tx
        .select({ n: count() })
        .from(t)
        .where(and(mine(auth.tenantId), eq(t.isDeleted, 0), inArray(t.parentId, ids), notInArray(t.id, ids)));
      if (n > 0) throw badRequest(texts.hasChildren);
    },
    afterWrite: (auth) => (opts.global ? s.cache.clearAll() : s.cache.clearTenant(auth.tenantId)),
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  const read = { permission: opts.code, platform: opts.global };
  app.get(
    `${opts.base}/parent-list`,
    { config: read, schema: { tags: [opts.code], querystring: z.record(z.string(), z.unknown()) } },
    async (req) => ok(await svc.list(requireAuth(req), req.query as Record<string, unknown>, eq(t.parentId, '0'))),
  );

  app.get(
    `${opts.base}/child-list`,
    { config: read, schema: { tags: [opts.code], querystring: z.object({ parentId: parentParam }) } },
    async (req) => {
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
  );

  // tree?code=DICT (from the factory's tree table): every entry as nodes, for the parent picker of the child form.

  // dictionary?code=: the entries of one dictionary, for selects; every signed-in user may read them.
  app.get(
    `${opts.base}/dictionary`,
    { schema: { tags: [opts.code], querystring: z.object({ code: z.string().trim().min(1).max(255) }) } },
    async (req) => {
      const auth = requireAuth(req);
      const code = req.query.code;
      const cacheTenant = opts.global ? '000000' : auth.tenantId;
      return ok(
        await s.cache.get(cacheTenant, `${opts.code}:${code}`, () =>
          withTenant(s.db, auth.tenantId, (tx) =>
            tx
              .select({
                id: t.id,
                parentId: t.parentId,
                code: t.code,
                dictKey: t.dictKey,
                dictValue: t.dictValue,
                sort: t.sort,
                remark: t.remark,
              })
              .from(t)
              .where(and(mine(auth.tenantId), eq(t.code, code), eq(t.isDeleted, 0), sql`${t.parentId} <> 0`))
              .orderBy(asc(t.sort), asc(t.id)),
          ),
        ),
      );
    },
  );
}

function requireKey(key: string | null | undefined): string {
  const k = (key ?? '').trim();
  if (!k)
    throw badRequest({ zh: texts.keyRequired.zh, en: texts.keyRequired.en }, [
      { field: 'dictKey', message: texts.keyRequired.zh },
    ]);
  return k;
}

export function dictRoutes(app: FastifyInstance, s: Services) {
  dictModule(app, s, {
    table: dict,
    base: '/api/blade-system/dict',
    global: true,
    code: 'dict',
    unique: 'dict_code_key_uq',
  });
  dictModule(app, s, {
    table: dictBiz,
    base: '/api/blade-system/dict-biz',
    global: false,
    code: 'dictbiz',
    unique: 'dict_biz_code_key_uq',
  });
}
