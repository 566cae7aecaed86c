import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { newId } from '../db/ids.ts';
import { auditLog } from '../db/schema/index.ts';
import { ok } from './envelope.ts';
import { AppError, badRequest, forbidden, notFound, texts, type Text } from './errors.ts';
import { permissionCodes } from '../modules/menu/service.ts';
import { requireAuth } from './guard.ts';
import { parseListQuery, toPage, type ListRules } from './paging.ts';
import type { Services } from './services.ts';
import { withTenant } from './tenant-db.ts';
import type { AuthContext } from './tokens.ts';

/** The columns the factory relies on: every tenant record has them (api-contract §1). */
type Columns = {
  id: PgColumn; tenantId: PgColumn; isDeleted: PgColumn; version: PgColumn; status: PgColumn;
  createUser: PgColumn; createDept: PgColumn; createTime: PgColumn; updateUser: PgColumn; updateTime: PgColumn;
};
export type TenantTable = PgTable & Columns;
type Row = Record<string, unknown> & { id: string; version: number; tenantId: string };

export const idParam = z.union([z.string().regex(/^\d{1,19}$/, 'must be a numeric id'), z.number().int().positive()]).transform(String);
export const idList = z.string().trim().min(1, 'ids is required').max(20000)
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^\d{1,19}$/, 'ids must be numeric')).min(1).max(1000));

export type CrudSpec<B extends z.ZodObject> = {
  /** Entity name used in audit records and messages. */
  entity: string;
  table: TenantTable;
  /** e.g. '/api/blade-system/post' */
  base: string;
  /** Permission codes: list/detail need `view`, insert `add`, update `edit`, remove `remove`. */
  codes: { view: string; add: string; edit: string; remove: string };
  /** The fields a client may submit (never id, tenantId, isDeleted, audit columns). */
  body: B;
  list: ListRules;
  /** Names a list path other than 'list' (e.g. 'page'). */
  listPath?: string;
  /** Unique-index name → the field and text to show when it is violated. */
  unique?: Record<string, { field: string; text: Text }>;
  /** Drops what must never leave the server. */
  present?: (row: Row) => Record<string, unknown>;
  /** Rules that refuse a save (throw AppError) or adjust the values written. */
  beforeSave?: (ctx: SaveContext<z.infer<B>>) => Promise<Record<string, unknown> | void>;
  /** Rules that refuse a removal, e.g. "still in use". */
  beforeRemove?: (tx: Db, ids: string[], auth: AuthContext) => Promise<void>;
};

export type SaveContext<T> = { tx: Db; auth: AuthContext; input: T; existing: Row | null };

const stale = () => new AppError(409, texts.stale);

export function crudService<B extends z.ZodObject>(s: Services, spec: CrudSpec<B>) {
  const t = spec.table;
  const live = (auth: AuthContext, extra?: SQL) => and(eq(t.tenantId, auth.tenantId), eq(t.isDeleted, 0), extra);
  const present = (row: Row) => (spec.present ? spec.present(row) : row);
  const audit = (tx: Db, auth: AuthContext, requestId: string, action: string, entityId: string, before: unknown, after: unknown) =>
    tx.insert(auditLog).values({
      id: newId(), tenantId: auth.tenantId, userId: auth.userId, action, entity: spec.entity, entityId,
      before: before == null ? null : JSON.stringify(before), after: after == null ? null : JSON.stringify(after), requestId, createTime: s.now(),
    });
  const uniqueError = (err: unknown): AppError | null => {
    let e: unknown = err;
    for (let i = 0; i < 3 && e; i++) {
      const pgErr = e as { code?: string; constraint?: string; constraint_name?: string };
      if (pgErr.code === '23505') {
        const name = pgErr.constraint ?? pgErr.constraint_name ?? '';
        const u = spec.unique?.[name];
        return u ? badRequest(u.text, [{ field: u.field, message: typeof u.text === 'string' ? u.text : u.text.zh }])
          : badRequest({ zh: '数据已存在', en: 'The record already exists' });
      }
      e = (e as { cause?: unknown }).cause;
    }
    return null;
  };

  return {
    async list(auth: AuthContext, query: Record<string, unknown>, scope?: SQL) {
      const q = parseListQuery(query, spec.list);
      return withTenant(s.db, auth.tenantId, async (tx) => {
        const where = live(auth, and(q.where, scope));
        const [{ n }] = await tx.select({ n: count() }).from(t).where(where);
        const rows = n === 0 ? [] : await tx.select().from(t).where(where)
          .orderBy(...(q.orderBy.length ? q.orderBy : [sql`${t.id} desc`])).limit(q.size).offset((q.current - 1) * q.size);
        return toPage((rows as Row[]).map(present), n, q);
      });
    },

    async detail(auth: AuthContext, id: string, scope?: SQL) {
      return withTenant(s.db, auth.tenantId, async (tx) => {
        const [row] = await tx.select().from(t).where(live(auth, and(eq(t.id, id), scope)));
        if (!row) throw notFound();
        return present(row as Row);
      });
    },

    /** No id → insert; with id → update of a record of the caller's tenant, checked against `version` when sent. */
    async submit(auth: AuthContext, raw: z.infer<B> & { id?: string; version?: number }, requestId: string, scope?: SQL) {
      const { id, version, ...input } = raw;
      try {
        return await withTenant(s.db, auth.tenantId, async (tx) => {
          const now = s.now();
          if (!id) {
            const extra = (await spec.beforeSave?.({ tx, auth, input: input as z.infer<B>, existing: null })) ?? {};
            const values = {
              ...input, ...extra, id: newId(), tenantId: auth.tenantId, createUser: auth.userId, createDept: auth.deptId,
              createTime: now, updateUser: auth.userId, updateTime: now, isDeleted: 0, version: 1,
            };
            const [row] = await tx.insert(t).values(values as never).returning();
            await audit(tx, auth, requestId, 'insert', (row as Row).id, null, present(row as Row));
            return present(row as Row);
          }
          const [existing] = await tx.select().from(t).where(live(auth, and(eq(t.id, id), scope)));
          if (!existing) throw notFound();
          const ex = existing as Row;
          if (version !== undefined && version !== ex.version) throw stale();
          const extra = (await spec.beforeSave?.({ tx, auth, input: input as z.infer<B>, existing: ex })) ?? {};
          const [row] = await tx.update(t).set({ ...input, ...extra, updateUser: auth.userId, updateTime: now, version: sql`${t.version} + 1` } as never)
            .where(and(eq(t.id, id), eq(t.tenantId, auth.tenantId), eq(t.version, ex.version))).returning();
          if (!row) throw stale();
          await audit(tx, auth, requestId, 'update', id, present(ex), present(row as Row));
          return present(row as Row);
        });
      } catch (err) {
        throw uniqueError(err) ?? err;
      }
    },

    /** Soft-deletes all the ids or none: one id that is not the caller's (or not visible) makes it a 404. */
    async remove(auth: AuthContext, ids: string[], requestId: string, scope?: SQL) {
      const unique = [...new Set(ids)];
      return withTenant(s.db, auth.tenantId, async (tx) => {
        const rows = await tx.select().from(t).where(live(auth, and(inArray(t.id, unique), scope)));
        if (rows.length !== unique.length) throw notFound();
        await spec.beforeRemove?.(tx, unique, auth);
        await tx.update(t).set({ isDeleted: 1, updateUser: auth.userId, updateTime: s.now(), version: sql`${t.version} + 1` } as never)
          .where(and(inArray(t.id, unique), eq(t.tenantId, auth.tenantId)));
        for (const r of rows as Row[]) await audit(tx, auth, requestId, 'delete', r.id, present(r), null);
        return true;
      });
    },
  };
}

/** Registers list / detail / submit / remove for a spec, each behind its permission code. */
export function crudRoutes<B extends z.ZodObject>(root: FastifyInstance, s: Services, spec: CrudSpec<B>) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const svc = crudService(s, spec);
  const tags = [spec.entity];
  const submitBody = spec.body.extend({ id: idParam.optional(), version: z.coerce.number().int().positive().optional() });

  app.get(`${spec.base}/${spec.listPath ?? 'list'}`, { config: { permission: spec.codes.view }, schema: { tags, querystring: z.record(z.string(), z.unknown()) } },
    async (req) => ok(await svc.list(requireAuth(req), req.query as Record<string, unknown>)));
  app.get(`${spec.base}/detail`, { config: { permission: spec.codes.view }, schema: { tags, querystring: z.object({ id: idParam }) } },
    async (req) => ok(await svc.detail(requireAuth(req), req.query.id)));
  app.post(`${spec.base}/submit`, { config: { permission: [spec.codes.add, spec.codes.edit] }, schema: { tags, body: submitBody } }, async (req) => {
    const auth = requireAuth(req);
    const body = req.body as z.infer<B> & { id?: string; version?: number };
    // The guard let in holders of either code; an insert needs add, an update needs edit.
    await requireCode(s, auth, body.id ? spec.codes.edit : spec.codes.add);
    const saved = await svc.submit(auth, body, req.id);
    return ok(saved, body.id ? '更新成功' : '新增成功');
  });
  app.post(`${spec.base}/remove`, { config: { permission: spec.codes.remove }, schema: { tags, querystring: z.object({ ids: idList }) } },
    async (req) => ok(await svc.remove(requireAuth(req), req.query.ids, req.id), '删除成功'));
  return svc;
}

async function requireCode(s: Services, auth: AuthContext, code: string) {
  const codes = await permissionCodes(s, auth.tenantId, auth.roleIds);
  if (!codes.has(code)) throw forbidden(code);
}
