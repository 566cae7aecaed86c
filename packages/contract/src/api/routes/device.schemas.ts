import { z } from 'zod';
import { encodeMsg } from '../../resource/messages.ts';
import { idSchema } from '../../resource/schema.ts';
import { CONFIG_VALUE_TYPES } from '../../resources/device/configtemplateitem.ts';
import { nvrchannelinfo } from '../../resources/device/nvrchannelinfo.ts';
import { apiTexts as texts } from '../messages.ts';
import { recordAnswer } from '../records.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of the device screens' own calls (addresses in device.ts). */

/** A level-1 code of the device dictionary (GB/T 28181 device type): three digits. */
const deviceType = z
  .string({ error: encodeMsg(texts.deviceType) })
  .regex(/^\d{3}$/, encodeMsg(texts.deviceType))
  .optional();

export const dictListAll = {
  // '0' is the root: its children are the device types.
  query: z.object({ parentId: idSchema(undefined, { allowZero: true }).optional(), deviceType }),
  answer: z.array(
    z.object({
      id: z.string(),
      parentId: z.string(),
      code: z.string(),
      /** In the caller's language (the English name when asked in English and there is one). */
      name: z.string(),
      nameEn: z.string().nullable(),
      sort: z.number(),
    }),
  ),
} satisfies RouteSchemas;

export const templateOptions = {
  query: z.object({ deviceType }),
  answer: z.array(
    z.object({ id: z.string(), name: z.string(), deviceType: z.string(), manufacturer: z.string().nullable() }),
  ),
} satisfies RouteSchemas;

export const subDomainOptions = {
  query: z.object({ clientId: idSchema().optional() }),
  answer: z.array(z.object({ id: z.string(), fullDomain: z.string(), clientId: z.string() })),
} satisfies RouteSchemas;

export const configItems = {
  query: z.object({ templateId: idSchema() }),
  answer: z.array(
    z.object({
      itemKey: z.string(),
      itemName: z.string(),
      valueType: z.enum(CONFIG_VALUE_TYPES),
      defaultValue: z.string().nullable(),
      options: z.string().nullable(),
      unit: z.string().nullable(),
      min: z.number().nullable(),
      max: z.number().nullable(),
      required: z.number(),
    }),
  ),
} satisfies RouteSchemas;

const channel = nvrchannelinfo.fields;

/**
 * One NVR's channel list, replaced as a whole (docs/devices.md "Device records"): the list's own rules (numbers
 * 1–9999 and unique, codes of 20 digits) are the server's, each refused with the channel's number.
 */
export const saveNvrChannelInfo = {
  body: z.object({
    nvrDeviceId: idSchema(channel.nvrDeviceId.label),
    channels: z
      .array(
        z.object({
          // Numbers, codes, names and the list's length are checked by the service with their own messages (a
          // number 1–9999, a code of 20 digits, a name of at most 64, at most 1024 channels: docs/devices.md).
          channelNo: z.unknown().transform((v) => (typeof v === 'number' || typeof v === 'string' ? Number(v) : NaN)),
          channelCode: z.string().trim().max(10_000).nullish(),
          name: z.string().trim().max(10_000).nullish(),
          /** Absent keeps the channel's camera, null clears it. */
          cameraId: idSchema(channel.cameraId.label).nullish(),
        }),
      )
      .max(100_000),
  }),
  answer: z.object({
    added: z.number().int(),
    updated: z.number().int(),
    removed: z.number().int(),
    /** The NVR's channels after the replace, as the list answers them. */
    channels: z.array(recordAnswer(nvrchannelinfo)),
  }),
} satisfies RouteSchemas;
