import { z } from 'zod';
import { idSchema } from '../../resource/schema.ts';
import { encodeMsg, idLabels } from '../../resource/messages.ts';
import { apiTexts } from '../messages.ts';
import { dict } from '../../resources/system/dict.ts';
import { dictbiz } from '../../resources/system/dictbiz.ts';
import { menu } from '../../resources/system/menu.ts';
import { listQuery, pageOf, recordAnswer } from '../records.ts';
import { treeNodeSchema } from '../shapes.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of the system calls beyond the CRUD routes (addresses in system.ts). */

type Entry = Record<string, unknown> & { id: string; hasChildren: boolean; children: Entry[] };
/** Entries of a dictionary as nested records: an entry may have entries of its own. */
const entryTree = (def: typeof dict | typeof dictbiz) => {
  // recordAnswer's shape is keyed by string, so zod's inferred output loses the named fields Entry adds.
  const entry: z.ZodType<Entry> = z.lazy(() =>
    recordAnswer(def).extend({ hasChildren: z.boolean(), children: z.array(entry) }),
  ) as unknown as z.ZodType<Entry>;
  return z.array(entry);
};
const childQuery = z.object({ parentId: idSchema(idLabels.id, { allowZero: true }) });

export const dictParentList = { query: listQuery, answer: pageOf(recordAnswer(dict)) } satisfies RouteSchemas;
export const dictChildList = { query: childQuery, answer: entryTree(dict) } satisfies RouteSchemas;
export const bizDictParentList = { query: listQuery, answer: pageOf(recordAnswer(dictbiz)) } satisfies RouteSchemas;
export const bizDictChildList = { query: childQuery, answer: entryTree(dictbiz) } satisfies RouteSchemas;

export const lazyMenuList = { query: listQuery, answer: z.array(recordAnswer(menu)) } satisfies RouteSchemas;
export const menuList = { query: listQuery, answer: pageOf(recordAnswer(menu)) } satisfies RouteSchemas;

export const roleTreeById = {
  query: z.object({ roleId: idSchema(idLabels.id) }),
  // Role nodes carry the role's alias beside the title.
  answer: z.array(treeNodeSchema),
} satisfies RouteSchemas;

/**
 * Binds a tenant to a data source (its rows moved there) or, with an empty `datasourceId`, back to the main database
 * (docs/tenants.md "Moving a tenant").
 */
export const tenantDatasource = {
  body: z.object({
    tenantId: z
      .string({ error: encodeMsg(apiTexts.tenantIdRequired) })
      .trim()
      .refine((v) => /^\d{6,12}$/.test(v), encodeMsg(apiTexts.tenantIdRequired)),
    datasourceId: z
      .union([z.string(), z.null()])
      .optional()
      .refine((v) => !v || /^\d{1,19}$/.test(v), encodeMsg(apiTexts.datasourceIdMalformed)),
  }),
  answer: z.object({ tenantId: z.string(), datasourceId: z.string().nullable(), rows: z.number(), ms: z.number() }),
} satisfies RouteSchemas;

/** The tenant whose data a transfer concerns (a 6–12 digit tenant id). */
const tenantIdParam = z
  .string({ error: encodeMsg(apiTexts.tenantIdRequired) })
  .trim()
  .refine((v) => /^\d{6,12}$/.test(v), encodeMsg(apiTexts.tenantIdRequired));

export const tenantExport = {
  query: z.object({ tenantId: tenantIdParam }),
  answer: z.unknown(),
} satisfies RouteSchemas;

/** What an import wrote: tables and rows, and the rows of each table. */
export const transferSummary = z.object({
  tables: z.number(),
  rows: z.number(),
  perTable: z.record(z.string(), z.number()),
});

export const tenantImport = {
  query: z.object({ tenantId: tenantIdParam, replace: z.enum(['true', 'false']).optional() }),
  answer: transferSummary,
} satisfies RouteSchemas;
