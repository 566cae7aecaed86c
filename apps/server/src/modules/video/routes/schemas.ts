import { z } from 'zod';
import { encodeMsg, type Msg } from '@atrium/contract';

export const tags = ['video'];
/** The permission of every call: the monitoring screen's menu code (seed `video_monitor`). */
export const CODE = 'video_monitor';
const MAX_ID = 9223372036854775807n;

/** A record id in a query, refused with the call's own message. */
export const idParam = (m: Msg) =>
  z
    .string({ error: encodeMsg(m) })
    .regex(/^\d{1,19}$/, encodeMsg(m))
    // Refinements run after a failed pattern too: BigInt only sees digits.
    .refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= MAX_ID, encodeMsg(m));
