import { methodsOf, type ApiRoute, type RouteSchemas } from '@atrium/contract';
import type { ZodType } from 'zod';

type Part<S, K extends keyof RouteSchemas, F extends string> = S extends { [k in K]: infer T }
  ? T extends ZodType
    ? { [f in F]: T }
    : unknown
  : unknown;
export type ContractSchema<S extends RouteSchemas> = { tags: string[]; summary: string } & Part<
  S,
  'query',
  'querystring'
> &
  Part<S, 'params', 'params'> &
  Part<S, 'body', 'body'>;

/**
 * The Fastify options of a route declared in the contract (docs/api.md "Routes in the contract"): method, URL, who
 * may call it (the guard's `config`) and the request schemas come from the declaration, so server and web cannot
 * disagree. The handler and any extra options (a serializer, a body limit) are the module's. A plugin registered with
 * a prefix passes it (`app.prefix`).
 */
export function fromContract<S extends RouteSchemas>(route: ApiRoute<S>, schemas: S, tags: string[], prefix = '') {
  // Inside a plugin registered with a prefix, the URL is the declared path below it.
  if (!route.path.startsWith(prefix)) throw new Error(`${route.path} is not under the plugin's prefix ${prefix}`);
  return {
    method: [...methodsOf(route)],
    url: route.path.slice(prefix.length),
    config: {
      auth: route.auth,
      ...(route.permission ? { permission: route.permission as string | string[] } : {}),
      ...(route.platform ? { platform: true } : {}),
    },
    schema: {
      tags,
      summary: route.summary,
      ...(schemas.query ? { querystring: schemas.query } : {}),
      ...(schemas.params ? { params: schemas.params } : {}),
      ...(schemas.body ? { body: schemas.body } : {}),
    } as ContractSchema<S>,
  };
}
