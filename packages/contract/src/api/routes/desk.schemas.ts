import { z } from 'zod';
import { idSchema } from '../../resource/schema.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of the bell and the read view (addresses in desk.ts; docs/notices.md). */

/** A notice as the bell lists it. */
export const bellNotice = z.object({
  id: z.string(),
  title: z.string(),
  category: z.number().int(),
  releaseTime: z.string(),
  /** Released after the caller last opened the bell. */
  unread: z.boolean(),
});

/** A device that went offline (device access's status events). */
export const bellDevice = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceCode: z.string(),
  name: z.string().nullable(),
  at: z.string(),
  unread: z.boolean(),
});

/** A message the outbox gave up on. */
export const bellFailure = z.object({
  id: z.string(),
  channel: z.string(),
  recipient: z.string(),
  lastError: z.string().nullable(),
  at: z.string(),
  unread: z.boolean(),
});

export const bell = {
  answer: z.object({
    notices: z.array(bellNotice),
    /** The caller's waiting tasks (assigned, claimable). */
    waiting: z.object({ todo: z.number().int(), claim: z.number().int() }),
    /** Empty unless the caller holds `cameradevice`. */
    devices: z.array(bellDevice),
    /** Empty unless the caller holds `outbox`. */
    failures: z.array(bellFailure),
    /** Items above released or happened after the caller last opened the bell. */
    unread: z.number().int(),
    /** When the caller last opened the bell (null: never). */
    seenUpTo: z.string().nullable(),
  }),
} satisfies RouteSchemas;

export const bellSeen = {
  answer: z.object({ unread: z.number().int(), seenUpTo: z.string() }),
} satisfies RouteSchemas;

export const read = {
  query: z.object({ id: idSchema() }),
  answer: z.object({
    id: z.string(),
    title: z.string(),
    category: z.number().int(),
    releaseTime: z.string(),
    status: z.number().int(),
    /** Sanitised HTML (docs/notices.md "Sanitiser"). */
    content: z.string(),
    createUserName: z.string().nullable(),
  }),
} satisfies RouteSchemas;
