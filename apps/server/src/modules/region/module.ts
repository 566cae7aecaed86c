import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, count, eq, inArray, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import { encodeMsg, fill, msg, type Lang, type Msg } from '@atrium/contract';
import {
  region as def,
  REGION_DIGITS,
  REGION_LEVELS,
  REGION_NAMES_MAX,
  REGION_ROOT,
  regionLevel,
  regionParent,
} from '@atrium/contract/resources/system/region';
import { newId } from '../../db/ids.ts';
import { idList, idParam, rawQuery, writeAudit } from '../../platform/crud.ts';
import { fail, ok } from '../../platform/envelope.ts';
import { AppError, badRequest, notFound, render } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import { perAddress } from '../../platform/rate-limit.ts';
import { parseRows, planRows, readRegionSheet, type ImportError } from './import.ts';
import { regionTexts as texts } from './messages.ts';
import {
  liveByCodes,
  parentsAmong,
  placement,
  regionInUse,
  regionUsedBy,
  renameBelow,
  subtreeOf,
  writeRegions,
  type RegionRow,
} from './service.ts';
import { region } from './table.ts';
import { writeXlsx, type Cell } from './xlsx.ts';

/** Most rows one export writes; a larger subtree is exported part by part. */
const EXPORT_MAX_ROWS = 100_000;
/** Rows per statement of an import (one JSON parameter each). */
const IMPORT_CHUNK = 5000;

/** A region code on the wire: '00' (the root) or 2–12 digits. */
const codeParam = z
  .string({ error: encodeMsg(texts.badCode) })
  .trim()
  .refine((s) => /^\d{2,12}$/.test(s), encodeMsg(texts.badCode));

const fieldError = (field: string, text: Msg) => badRequest(text, [{ field, message: text }]);

/** `codes`: a comma list of 1 to REGION_NAMES_MAX region codes (repeats count once); anything else is a 400 naming it. */
function namesAsked(raw: string | undefined): string[] {
  const codes = [...new Set((raw ?? '').split(',').map((c) => c.trim()))].filter(Boolean);
  if (!codes.length) throw fieldError('codes', texts.codesRequired);
  if (codes.length > REGION_NAMES_MAX) throw fieldError('codes', fill(texts.tooManyCodes, { max: REGION_NAMES_MAX }));
  if (!codes.every((c) => /^\d{2,12}$/.test(c))) throw fieldError('codes', texts.badCode);
  return codes;
}

/**
 * 行政区划 (docs/product.md "Regions", docs/system-api.md): the generated list, detail, submit and remove on the
 * definition — detail also by `code`, remove also by one `id` — plus `lazy-tree?parentCode=` for pickers (public),
 * `names?codes=` for the region cells of lists and details (every signed-in user), `export` (xlsx of a subtree or all) and `import` (xlsx, upsert by code, all rows or none).
 */
export default defineModule((root, s) => {
  // detail?code= and remove?id= beside the generated id forms: the generated routes take one more name for their
  // record, resolved before their handler (the way the dictionaries add their own checks to generated routes).
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
      { query: z.object({ id: idParam.optional(), code: codeParam.optional() }), pre: byCode },
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

  resourceRoutes(
    root,
    s,
    bindResource(def, region, {
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
      async beforeRemove(tx, ids, _auth, rows) {
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
        const used = await regionInUse(tx, codes);
        if (used)
          throw badRequest(fill(texts.inUse, { name: String(rows.find((r) => r.code === used)?.name ?? used) }));
      },
    }),
  );

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = [def.code];

  // One level of the tree, for the region screen and the region pickers of every screen — the public registration
  // page's too: the national list is public knowledge, so no login is needed (at most 300 calls a minute per client
  // address, per process).
  app.get(
    `${def.base}/lazy-tree`,
    {
      config: { auth: 'none', rateLimit: perAddress(300, 60_000, texts.tooMany) },
      schema: { tags, querystring: z.object({ parentCode: codeParam.default(REGION_ROOT) }) },
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
  app.get(
    `${def.base}/names`,
    {
      schema: {
        tags,
        summary: `Names of regions by code (a comma list of at most ${REGION_NAMES_MAX})`,
        querystring: z.object({ codes: z.string().max(8000).optional() }),
      },
    },
    async (req) => {
      requireAuth(req);
      const codes = namesAsked(req.query.codes);
      const rows = await s.db.transaction((tx) =>
        tx
          .select({ code: region.code, name: region.name })
          .from(region)
          .where(and(inArray(region.code, codes), eq(region.isDeleted, 0))),
      );
      const byCode = new Map(rows.map((r) => [r.code, r.name]));
      // The table holds the national (Chinese) names only: they are the answer in every language.
      return ok(codes.filter((c) => byCode.has(c)).map((code) => ({ code, name: byCode.get(code)! })));
    },
  );

  app.get(
    `${def.base}/export`,
    {
      config: { permission: `${def.code}_export` },
      schema: { tags, querystring: z.object({ code: codeParam.optional() }) },
    },
    async (req, reply) => {
      const auth = requireAuth(req);
      // Like a list: a parameter it does not know is refused, never ignored.
      const unknown = Object.keys(rawQuery(req)).find((k) => k !== 'code');
      if (unknown) throw fieldError(unknown, msg('unknownFilter', { name: unknown.slice(0, 64) }));
      const code = req.query.code;
      const rows = await withTenant(s.db, auth.tenantId, async (tx) => {
        const [{ n }] = await tx.select({ n: count() }).from(region).where(subtreeOf(code));
        if (n > EXPORT_MAX_ROWS) throw badRequest(fill(texts.exportTooLarge, { max: EXPORT_MAX_ROWS }));
        return tx.select().from(region).where(subtreeOf(code)).orderBy(asc(region.code));
      });
      const file = await exportFile(rows, req.lang ?? 'zh');
      const name = `${texts.sheetName[req.lang ?? 'zh']}${code ? `-${code}` : ''}.xlsx`;
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header(
          'content-disposition',
          `attachment; filename="regions${code ? `-${code}` : ''}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .header('cache-control', 'no-store')
        .send(file);
    },
  );

  app.post(
    `${def.base}/import`,
    {
      config: { permission: `${def.code}_import`, platform: true },
      schema: { tags, summary: 'Import regions from an xlsx workbook (multipart field "file"); all rows or none' },
    },
    async (req: FastifyRequest, reply: FastifyReply) => {
      const auth = requireAuth(req);
      const lang = req.lang ?? 'zh';
      const file = await uploaded(req);
      const { rows, errors } = parseRows(await readRegionSheet(file));
      const result = await withTenant(s.db, auth.tenantId, async (tx) => {
        const needed = rows.flatMap((r) => [r.code, regionParent(r.code)]).filter((c) => c !== REGION_ROOT);
        const plan = planRows(rows, await liveByCodes(tx, needed));
        const all = [...errors, ...plan.errors].sort((a, b) => a.row - b.row);
        if (all.length) return { errors: all, total: rows.length + errors.length };
        const now = s.now();
        const inserted = plan.planned.filter((r) => !r.existing).length;
        let written = 0;
        for (let i = 0; i < plan.planned.length; i += IMPORT_CHUNK) {
          const chunk = plan.planned.slice(i, i + IMPORT_CHUNK).map((r) =>
            Object.assign(r, {
              id: newId(),
              sort: r.sort ?? r.existing?.sort ?? 0,
              remark: r.remark === undefined ? (r.existing?.remark ?? null) : r.remark,
              createUser: auth.userId,
              createDept: auth.deptId,
              createTime: now,
              updateUser: auth.userId,
              updateTime: now,
            }),
          );
          written += (await writeRegions(tx, chunk, true)).length;
        }
        const updated = written - inserted;
        // A renamed region's descendants outside the file carry its new name.
        for (const r of plan.planned) {
          if (r.existing && r.existing.name !== r.name) await renameBelow(tx, r.code, r.name);
        }
        const total = plan.planned.length;
        await writeAudit(s, tx, auth, req.id, def.code, 'import', '0', null, { total, inserted, updated });
        return { errors: [] as ImportError[], total, inserted, updated };
      });
      if (result.errors.length) {
        const shown = result.errors.slice(0, 500).map((e) => ({ row: e.row, code: e.code, message: e.message[lang] }));
        const text = render(fill(texts.importRefused, { count: result.errors.length }), lang);
        return reply
          .status(400)
          .send(fail(400, text, { total: result.total, inserted: 0, updated: 0, unchanged: 0, errors: shown }));
      }
      const { total, inserted = 0, updated = 0 } = result;
      return ok(
        { total, inserted, updated, unchanged: total - inserted - updated, errors: [] },
        fill(texts.imported, { inserted, updated }),
      );
    },
  );
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

/** The uploaded workbook (multipart field "file"); anything else is a 400. */
async function uploaded(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw badRequest(texts.noFile);
  const part = await req.file().catch(() => {
    throw badRequest(texts.notXlsx);
  });
  if (!part) throw badRequest(texts.noFile);
  const buf = await part.toBuffer().catch((err: { code?: string }) => {
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(400, msg('fileTooLarge'));
    throw badRequest(texts.notXlsx);
  });
  if (part.file.truncated) throw new AppError(400, msg('fileTooLarge'));
  if (!buf.length) throw badRequest(texts.noFile);
  return buf;
}

/** The export's columns: the fields of the definition, labelled in the caller's language. */
const EXPORTED = [
  'code',
  'parentCode',
  'name',
  'level',
  'sort',
  'remark',
  'ancestors',
  ...REGION_LEVELS.flatMap((l) => [`${l}Code`, `${l}Name`]),
] as const;

function exportFile(rows: RegionRow[], lang: Lang): Promise<Buffer> {
  const fields = def.fields as Record<string, { label: Msg }>;
  return writeXlsx({
    name: texts.sheetName[lang],
    header: EXPORTED.map((k) => fields[k].label[lang]),
    rows: rows.map((r) => EXPORTED.map((k) => (r as Record<string, unknown>)[k] as Cell)),
    widths: EXPORTED.map((k) => (k.endsWith('Name') || k === 'name' ? 20 : k === 'ancestors' ? 24 : 14)),
  });
}
