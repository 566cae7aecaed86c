import type { ApiRoute, Msg, RouteSchemas } from '@atrium/contract';
import { fromContract } from './contract-route.ts';

/** What a module adds to a declared route's guard `config`: its field labels, a read's live-state flag. */
export type RouteExtras = { labels?: Record<string, Msg>; liveInRead?: boolean };

/**
 * A declared route (`fromContract`, docs/api.md "Routes in the contract") with the module's additions to its
 * `config`: the labels of a resource's fields (field errors name them) and `liveInRead` (docs/server.md "Live state
 * and cache epochs"). Who may call it still comes from the declaration alone.
 */
export function declared<S extends RouteSchemas>(
  route: ApiRoute<S>,
  schemas: S,
  tags: string[],
  opts: { prefix?: string } & RouteExtras = {},
) {
  const { prefix, ...extras } = opts;
  const r = fromContract(route, schemas, tags, prefix);
  return { ...r, config: { ...r.config, ...extras } };
}
