import { z } from 'zod';
import type { RouteSchemas } from '../route.ts';

/**
 * The schemas of the statistics calls (addresses in statistics.ts; docs/devices.md "Statistics"). The queries are
 * kept open (`looseObject`): the handler checks each parameter and refuses an unknown one with a 400 naming it, in
 * the caller's language.
 */

/** A parameter as the query string carries it (a repeated one: the first counts). */
const text = z.union([z.string(), z.number(), z.array(z.string())]).optional();

/** A region's numbers: `onlineRate` is a percent with two decimals. */
export const statRow = z.object({
  regionCode: z.string(),
  regionName: z.string(),
  total: z.number(),
  online: z.number(),
  offline: z.number(),
  onlineRate: z.number(),
});
export const statSummary = z.object({
  total: z.number(),
  online: z.number(),
  offline: z.number(),
  onlineRate: z.number(),
});

export const onlinePage = {
  query: z.looseObject({
    regionCode: text,
    date: text,
    deviceType: text,
    current: text,
    size: text,
    ascs: text,
    descs: text,
  }),
  answer: z.object({
    records: z.array(statRow),
    total: z.number(),
    size: z.number(),
    current: z.number(),
    pages: z.number(),
    regionCode: z.string(),
    regionName: z.string(),
    /** The names from the province down: the title of a view that opens below the provinces. */
    regionPath: z.string(),
    /** The past day asked for, or null for now. */
    date: z.string().nullable(),
    summary: statSummary,
  }),
} satisfies RouteSchemas;

export const onlineTrend = {
  query: z.looseObject({ regionCode: text, deviceType: text, days: text }),
  answer: z.object({
    regionCode: z.string(),
    regionName: z.string(),
    /** Oldest first; a day without a rollup has nulls. */
    days: z.array(
      z.object({
        day: z.string(),
        total: z.number().nullable(),
        online: z.number().nullable(),
        onlineRate: z.number().nullable(),
      }),
    ),
  }),
} satisfies RouteSchemas;

const rankRow = z.object({ rank: z.number(), regionCode: z.string(), regionName: z.string(), total: z.number() });

/** Each row also carries the region's online numbers (`statRow`). */
export const deviceRanking = {
  query: z.looseObject({ deviceType: text, regionCode: text }),
  answer: z.array(rankRow.extend({ online: z.number(), offline: z.number(), onlineRate: z.number() })),
} satisfies RouteSchemas;

export const channelRanking = {
  query: z.looseObject({ regionCode: text }),
  answer: z.array(rankRow),
} satisfies RouteSchemas;
