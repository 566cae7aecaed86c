import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { business as api, fill } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { declared } from '../../../platform/declared.ts';
import { ok } from '../../../platform/envelope.ts';
import { AppError } from '../../../platform/errors.ts';
import { perAddress } from '../../../platform/rate-limit.ts';
import type { Services } from '../../../platform/services.ts';
import { subdomainTexts as texts } from '../messages.ts';
import { runningHostTenant } from '../service.ts';

/** The public `ask`: per client address, this many calls a minute (per process; docs/subdomains.md). */
export const ASK_LIMIT = { limit: 60, windowMs: 60_000 };

/** Public, under the definition's base: the edge proxy's question before it issues a certificate (Caddy on-demand TLS `ask`). */
export const askRoutes: FastifyPluginAsync<{ s: Services }> = async (plain, { s }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const route = declared(api.ask, apiSchemas.business.ask, ['subdomain'], { prefix: plain.prefix });
  app.route({
    ...route,
    config: {
      ...route.config,
      rateLimit: perAddress(ASK_LIMIT.limit, ASK_LIMIT.windowMs, (seconds) => fill(texts.tooMany, { seconds })),
    },
    handler: async (req) => {
      const found = await runningHostTenant(s.db, req.query.domain);
      if (!found) throw new AppError(404, texts.askUnknown);
      return ok(null, texts.askOk);
    },
  });
};
