import { z } from 'zod';
import { encodeMsg } from '../../resource/messages.ts';
import { apiTexts, PTZ_COMMANDS } from '../messages.ts';
import type { RouteSchemas } from '../route.ts';
import type { Msg } from '../../resource/define.ts';

/** The schemas of the live-video calls (addresses in video.ts; docs/devices.md "Live video"). */

const MAX_ID = 9223372036854775807n;
/** A record id in a query, refused with the call's own message. */
const idParam = (m: Msg) =>
  z
    .string({ error: encodeMsg(m) })
    .regex(/^\d{1,19}$/, encodeMsg(m))
    // Refinements run after a failed pattern too: BigInt only sees digits.
    .refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= MAX_ID, encodeMsg(m));

const streamId = z
  .string({ error: encodeMsg(apiTexts.streamId) })
  .regex(/^[0-9a-f]{24}$/, encodeMsg(apiTexts.streamId));
const tokenQuery = z.object({ token: z.string().max(1024).optional() });

/** Where a stream plays (`live`: the low-latency WebSocket, same token as `hls`), until `expiresAt`. */
const streamAddress = z.object({
  streamId: z.string(),
  hls: z.string(),
  live: z.string().optional(),
  expiresAt: z.string(),
  state: z.string(),
});

const wallCamera = z.object({
  id: z.string(),
  name: z.string(),
  deviceCode: z.string(),
  deviceType: z.string(),
  status: z.number(),
  ptz: z.number(),
  regionCode: z.string(),
  regionName: z.string().nullable(),
});

export const play = {
  query: z.object({
    deviceInfoId: idParam(apiTexts.cameraId),
    // `live`: answer once the low-latency output has a key frame (sooner than the first HLS segment).
    wait: z.enum(['hls', 'live'], { error: encodeMsg(apiTexts.streamWait) }).default('hls'),
  }),
  answer: streamAddress,
} satisfies RouteSchemas;

export const touch = { query: z.object({ streamId }), answer: streamAddress } satisfies RouteSchemas;

export const wall = {
  query: z.object({
    regionCode: z
      .string()
      .regex(/^(\d{2,12})?$/, encodeMsg(apiTexts.wallRegionCode))
      .optional(),
    current: z.coerce.number().int().min(1).max(1_000_000).default(1),
    size: z.coerce.number().int().min(1).max(500).default(100),
  }),
  answer: z.object({
    records: z.array(wallCamera),
    total: z.number(),
    size: z.number(),
    current: z.number(),
    pages: z.number(),
  }),
} satisfies RouteSchemas;

export const ptz = {
  query: z.object({
    deviceInfoId: idParam(apiTexts.cameraId),
    command: z.enum(PTZ_COMMANDS, { error: encodeMsg(apiTexts.ptzCommand) }),
    speed: z
      .string()
      .regex(/^[1-8]$/, encodeMsg(apiTexts.ptzSpeed))
      .default('4'),
  }),
  answer: z.boolean(),
} satisfies RouteSchemas;

export const live = {
  params: z.object({ streamId: z.string().max(64) }),
  query: tokenQuery,
  answer: z.unknown(),
} satisfies RouteSchemas;

export const hlsFile = {
  params: z.object({ streamId: z.string().max(64), file: z.string().max(64) }),
  query: tokenQuery,
  answer: z.unknown(),
} satisfies RouteSchemas;
