import { z } from 'zod';
import { encodeMsg } from '../../resource/messages.ts';
import { apiTexts as texts } from '../messages.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of the region calls beyond the CRUD routes and of the settings by region (addresses in region.ts). */

/** A region code on the wire: '00' (the root) or 2–12 digits. */
export const regionCodeParam = z
  .string({ error: encodeMsg(texts.regionCode) })
  .trim()
  .refine((s) => /^\d{2,12}$/.test(s), encodeMsg(texts.regionCode));

export const names = {
  // The list's own rules (1 to REGION_NAMES_MAX codes, each 2–12 digits) answer a 400 naming `codes`.
  query: z.object({ codes: z.string().max(8000).optional() }),
  answer: z.array(z.object({ code: z.string(), name: z.string() })),
} satisfies RouteSchemas;

/** The answer is the workbook's bytes (xlsx), with its name in `content-disposition`. */
export const exportXlsx = {
  query: z.object({ code: regionCodeParam.optional() }),
  answer: z.unknown(),
} satisfies RouteSchemas;

/** What an import did; a refused import (400) carries the same shape with the rows' errors (at most 500). */
export const importSummary = z.object({
  total: z.number(),
  inserted: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  errors: z.array(z.object({ row: z.number(), code: z.string(), message: z.string() })),
});
/** The body is multipart (field "file"), read by the handler. */
export const importXlsx = { answer: importSummary } satisfies RouteSchemas;

export const configByRegionType = {
  query: z.object({
    regionCode: z
      .string({ error: encodeMsg(texts.configRegionRequired) })
      .trim()
      .min(1, encodeMsg(texts.configRegionRequired))
      .refine((s) => /^\d{2,12}$/.test(s), encodeMsg(texts.configRegionCode)),
    sysType: z
      .string({ error: encodeMsg(texts.configTypeRequired) })
      .trim()
      .min(1, encodeMsg(texts.configTypeRequired))
      .refine((s) => s.length <= 64 && /^[\w.-]+$/.test(s), encodeMsg(texts.configTypeFormat)),
  }),
  answer: z.object({
    regionCode: z.string(),
    sysType: z.string(),
    /** The codes from the tenant default ('00') down to the region. */
    chain: z.array(z.string()),
    config: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    /** The region each key came from. */
    sources: z.record(z.string(), z.string()),
  }),
} satisfies RouteSchemas;
