import { z } from 'zod';
import { idListSchema, MAX_ID } from '../../resource/schema.ts';
import { encodeMsg, idLabels, msg } from '../../resource/messages.ts';
import { apiTexts as texts } from '../messages.ts';
import { treeNodeSchema } from '../shapes.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of the grant dialogs' reads (addresses in grants.ts). */

/** What a caller may hand out: menus as a tree, data and API scopes as leaves (titled "menu / scope"). */
const grantTrees = z.object({
  menu: z.array(treeNodeSchema),
  dataScope: z.array(treeNodeSchema).optional(),
  apiScope: z.array(treeNodeSchema).optional(),
});
/** The ids a role (or top menu) holds now. */
const grantKeys = z.object({
  menu: z.array(z.string()),
  dataScope: z.array(z.string()).optional(),
  apiScope: z.array(z.string()).optional(),
});

export const roleGrantTree = { answer: grantTrees } satisfies RouteSchemas;
export const roleTreeKeys = {
  query: z.object({ roleIds: idListSchema(idLabels.ids) }),
  answer: grantKeys,
} satisfies RouteSchemas;
export const topGrantTree = { answer: grantTrees } satisfies RouteSchemas;
export const topTreeKeys = {
  query: z.object({ topMenuIds: idListSchema(idLabels.ids) }),
  answer: grantKeys,
} satisfies RouteSchemas;

/** Ids in a JSON body: an array or a comma list (0 to 5000 of them). */
const idsInBody = z
  .union([z.array(z.union([z.string(), z.number()])), z.string().max(20000)])
  .transform((v) => (Array.isArray(v) ? v.map(String) : v.split(',')).map((x) => x.trim()).filter(Boolean))
  .pipe(
    z
      .array(
        z
          .string()
          .refine((x) => /^\d{1,19}$/.test(x) && BigInt(x) <= MAX_ID, encodeMsg(msg('notId', { label: idLabels.ids }))),
      )
      .max(5000),
  );

export const topMenuGrant = {
  body: z.object({
    topMenuIds: idsInBody.refine((a) => a.length > 0, encodeMsg(texts.chooseTopMenu)),
    menuIds: idsInBody.default([]),
  }),
  answer: z.boolean(),
} satisfies RouteSchemas;
