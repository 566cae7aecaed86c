import { shell } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { fromContract } from '../../platform/contract-route.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { param as paramDef } from '@atrium/contract/resources/system/param';
import { param } from '../../db/schema/index.ts';
import { ok } from '../../platform/envelope.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';

/** The platform parameter listing the origins the console may frame at /myiframe (docs/web.md "Framed pages"). */
export const PARAM_FRAME_ORIGINS = 'frame.allowedOrigins';

/**
 * The origins of a `frame.allowedOrigins` value: entries separated by spaces, commas or new lines, each an http(s)
 * URL reduced to its origin (scheme, host, port); `self` and anything else are left out (the console's own origin
 * is always allowed, by the console).
 */
export function frameOrigins(value: string | null | undefined): string[] {
  const out = new Set<string>();
  for (const entry of (value ?? '').split(/[\s,]+/)) {
    if (!entry || entry === 'self') continue;
    try {
      const u = new URL(entry);
      if (u.protocol === 'http:' || u.protocol === 'https:') out.add(u.origin);
    } catch {
      // Not a URL: ignored, as the docs say.
    }
  }
  return [...out];
}

/**
 * System parameters: plain CRUD on the definition. A write moves the global cache epoch (the table is listed in
 * platform/live.ts), since policies may be read through the caches. Plus `frame-origins`, the one parameter every
 * signed-in user reads (the console's /myiframe route).
 */
export default defineModule((root, s) => {
  resourceRoutes(root, s, bindResource(paramDef, param));
  const app = root.withTypeProvider<ZodTypeProvider>();
  // Any signed-in user: the console checks a framed page's origin against it (docs/web.md "Framed pages").
  app.route({
    ...fromContract(shell.frameOrigins, apiSchemas.shell.frameOrigins, [paramDef.code]),
    handler: async (req) => {
      requireAuth(req);
      const [row] = await s.db
        .select({ value: param.paramValue })
        .from(param)
        .where(and(eq(param.paramKey, PARAM_FRAME_ORIGINS), eq(param.isDeleted, 0)))
        .limit(1);
      return ok({ origins: frameOrigins(row?.value) });
    },
  });
});
