import { z } from 'zod';
import { encodeMsg } from '../../resource/messages.ts';
import { apiTexts as texts } from '../messages.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of the file upload and of sending an SMS (addresses in resource.ts). */

/** The body is multipart (field "file"), read by the handler. */
export const putFile = {
  answer: z.object({
    link: z.string(),
    domain: z.string(),
    name: z.string(),
    originalName: z.string(),
    /** The attachment's id (an email's `attach`). */
    attachId: z.string(),
  }),
} satisfies RouteSchemas;

/**
 * What to send: `phones` a comma list or an array (1 to 100 distinct numbers), `code` the SMS configuration (default:
 * the active one), `params` the template's values (an object, or its JSON). The handler also takes these from the
 * query, and checks each number and the parameters in the caller's language.
 */
export const sendMessageInput = z.object({
  code: z
    .string({ error: encodeMsg(texts.smsCode) })
    .max(64, encodeMsg(texts.smsCode))
    .optional(),
  phones: z
    .union([z.string().max(4000), z.array(z.union([z.string().max(20), z.number()])).max(1000)], {
      error: encodeMsg(texts.smsPhones),
    })
    .optional(),
  params: z.unknown().optional(),
});

export const sendMessage = {
  body: sendMessageInput.optional(),
  /** The outbox ids, one per phone. */
  answer: z.array(z.string()),
} satisfies RouteSchemas;
