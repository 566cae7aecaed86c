import type { z } from 'zod';

/**
 * One call of the API that is not a resource's CRUD (docs/api.md "Routes in the contract"), declared once in two
 * halves: its address here — method, path, who may call it, how it travels — and, in the area's `*.schemas.ts`, the
 * zod schemas of what it takes and answers. The web imports the addresses only (no zod in the console's first
 * bundle) and gets the schemas' types; the server registers each route from both (`fromContract`,
 * apps/server/src/platform/contract-route.ts), and its route table is checked against the declarations
 * (apps/server/test/contract-routes.test.ts).
 */
/** Where the API lives: every call's path starts here (docs/api.md "The lint rule"). */
export const API_ROOT = '/api';
/** The prefix of every call's path. */
export const API_PREFIX = '/api/';
/** The OpenAPI page and document (not calls: no guard, no API headers). */
export const API_DOCS = '/api/docs';
/** Whether a path is a call of the API (below {@link API_PREFIX}, not the OpenAPI page). */
export const isApiCall = (url: string): boolean => url.startsWith(API_PREFIX) && !url.startsWith(API_DOCS);

export type RouteSchemas = {
  /** The query string. */
  query?: z.ZodType;
  /** The path parameters. */
  params?: z.ZodType;
  /** The body. */
  body?: z.ZodType;
  /** The envelope's `data` (or, for `wire: 'plain'`, the whole answer). */
  answer: z.ZodType;
};

export type ApiRoute<S extends RouteSchemas = RouteSchemas> = {
  /** GET or POST (a call the spec offers both ways lists both). */
  method: 'GET' | 'POST' | readonly ('GET' | 'POST')[];
  /** The whole path, `:name` for a path parameter. */
  path: `/api/${string}`;
  /** `none`: public; `user`: a valid access token. */
  auth: 'none' | 'user';
  /** Permission code(s): any one of them admits (an API scope of the caller's roles may admit too). */
  permission?: string | readonly string[];
  /** The platform administrator only. */
  platform?: boolean;
  /**
   * Open to a user who must change their password before anything else: the change dialog and the shell around it
   * (the guard refuses every other call, apps/server/src/platform/guard.ts).
   */
  whileMustChange?: boolean;
  /** How the body travels (default JSON). */
  bodyType?: 'json' | 'form' | 'multipart' | 'text';
  /**
   * `envelope` (default): the answer is the envelope around the schema's `data`; `plain`: the object itself (the OAuth
   * token and the captcha, as the spec's clients expect); `stream`: bytes (files, video).
   */
  wire?: 'envelope' | 'plain' | 'stream';
  /** One line for the OpenAPI page. */
  summary: string;
  /** Type only: the schemas of this route (never set at run time). */
  readonly __schemas?: S;
};

/** Declares a route's address, typed by its schemas: `defineRoute<typeof schemas.token>()({ … })`. */
export const defineRoute =
  <S extends RouteSchemas>() =>
  <const R extends Omit<ApiRoute<S>, '__schemas'>>(route: R): R & { readonly __schemas?: S } =>
    route;

type SchemasOf<R> = R extends { readonly __schemas?: infer S } ? S : never;
type Input<S, K extends keyof RouteSchemas> = S extends { [k in K]: infer T }
  ? T extends z.ZodType
    ? z.input<T>
    : undefined
  : undefined;
export type QueryOf<R> = Input<SchemasOf<R>, 'query'>;
export type ParamsOf<R> = Input<SchemasOf<R>, 'params'>;
export type BodyOf<R> = Input<SchemasOf<R>, 'body'>;
export type AnswerOf<R> =
  SchemasOf<R> extends { answer: infer A } ? (A extends z.ZodType ? z.output<A> : never) : never;

export const methodsOf = (r: Pick<ApiRoute, 'method'>): readonly ('GET' | 'POST')[] =>
  typeof r.method === 'string' ? [r.method] : r.method;

/** The path with its parameters filled in (each encoded). */
export function pathOf(route: Pick<ApiRoute, 'path'>, params: Record<string, string | number> = {}): string {
  return route.path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`${route.path}: no value for :${name}`);
    return encodeURIComponent(String(v));
  });
}
