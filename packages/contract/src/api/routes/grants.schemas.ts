import { z } from 'zod';
import { idListSchema } from '../../resource/schema.ts';
import { idLabels } from '../../resource/messages.ts';
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
