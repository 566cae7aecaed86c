import { z } from 'zod';
import { idSchema } from '../../resource/schema.ts';
import { encodeMsg } from '../../resource/messages.ts';
import { apiTexts as texts } from '../messages.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of running and exporting a report (addresses in report.ts; docs/reports.md). */

const whole = (min: number, max: number, text: string) =>
  z.coerce.number({ error: text }).int(text).min(min, text).max(max, text);

export const run = {
  query: z.object({
    id: idSchema(),
    current: whole(1, 100_000, encodeMsg(texts.reportPage)).optional(),
    size: whole(1, 500, encodeMsg(texts.reportSize)).optional(),
  }),
  answer: z.object({
    name: z.string(),
    dataset: z.string(),
    chart: z.string(),
    /** The definition's columns in order, labelled in the caller's language. */
    columns: z.array(z.object({ key: z.string(), label: z.string(), kind: z.enum(['text', 'number']) })),
    /** One array per row, its values in the columns' order. */
    rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
    total: z.number(),
    current: z.number(),
    size: z.number(),
  }),
} satisfies RouteSchemas;

export const exportFile = {
  query: z.object({
    id: idSchema(),
    format: z.enum(['csv', 'xlsx'], { error: encodeMsg(texts.reportFormat) }),
  }),
  answer: z.unknown(),
} satisfies RouteSchemas;
