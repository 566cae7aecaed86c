import { methodsOf, type ApiRoute, type RouteSchemas } from '@atrium/contract';
import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import { fail } from './envelope.ts';
import { envelopeSchema, fjsCompiler, type JsonSchema } from './response.ts';

type Part<S, K extends keyof RouteSchemas, F extends string> = S extends { [k in K]: infer T }
  ? T extends ZodType
    ? { [f in F]: T }
    : unknown
  : unknown;
export type ContractSchema<S extends RouteSchemas> = {
  tags: string[];
  summary: string;
  response?: { 200: JsonSchema };
} & Part<S, 'query', 'querystring'> &
  Part<S, 'params', 'params'> &
  Part<S, 'body', 'body'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A declared route's answer (docs/api.md "Answers"): the schema of the envelope's `data` (`envelope`) or of the whole
     * answer (`plain`). Tests check each answer against it (`checkAnswers`).
     */
    answer?: { schema: ZodType; wire: 'envelope' | 'plain' };
  }
}

/** The keywords of a JSON schema whose value is a map of schemas, a schema, or a list of schemas. */
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];
const ONE = ['items', 'additionalProperties', 'not', 'propertyNames', 'contains'];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * What production serialises with (docs/api.md "Answers"): the schema without `required` — a property the handler
 * does not give is left out rather than failing the answer with a 500; the tests hold the handlers to the full schema.
 */
function lenient(s: unknown): unknown {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s as Record<string, unknown>)) {
    if (k === 'required') continue;
    if (MAPS.includes(k) && v && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([n, x]) => [n, lenient(x)]));
    else if (ONE.includes(k)) out[k] = Array.isArray(v) ? v.map(lenient) : lenient(v);
    else if (LISTS.includes(k) && Array.isArray(v)) out[k] = v.map(lenient);
    else out[k] = v;
  }
  return out;
}

/**
 * The JSON schema of an answer on the wire, for fast-json-stringify: only the declared properties leave the server (an
 * allowlist, as the CRUD answers: docs/resources.md "Answers"). The envelope wraps the schema of `data`; definitions
 * of recursive schemas (a tree's node) move to the root, where their references point.
 */
export function answerSchema(answer: ZodType, wire: 'envelope' | 'plain'): JsonSchema {
  // Converted below a holder, so a recursive schema is a definition and never the root its references name.
  const json = z.toJSONSchema(z.object({ data: answer }), { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const { $defs, properties } = lenient(json) as { $defs?: JsonSchema; properties: { data: JsonSchema } };
  const whole = wire === 'envelope' ? envelopeSchema(properties.data) : properties.data;
  return $defs ? { ...whole, $defs } : whole;
}

/**
 * The Fastify options of a route declared in the contract (docs/api.md "Routes in the contract"): method, URL, who
 * may call it (the guard's `config`), the request schemas and the answer's schema (an allowlist, docs/api.md
 * "Answers") come from the declaration, so server and web cannot disagree. The handler and any extra options (a body
 * limit) are the module's. A plugin registered with a prefix passes it (`app.prefix`).
 */
export function fromContract<S extends RouteSchemas>(route: ApiRoute<S>, schemas: S, tags: string[], prefix = '') {
  // Inside a plugin registered with a prefix, the URL is the declared path below it.
  if (!route.path.startsWith(prefix)) throw new Error(`${route.path} is not under the plugin's prefix ${prefix}`);
  const wire = route.wire ?? 'envelope';
  const answered = wire !== 'stream';
  return {
    method: [...methodsOf(route)],
    url: route.path.slice(prefix.length),
    config: {
      auth: route.auth,
      ...(route.permission ? { permission: route.permission as string | string[] } : {}),
      ...(route.platform ? { platform: true } : {}),
      ...(route.whileMustChange ? { whileMustChange: true } : {}),
      ...(answered ? { answer: { schema: schemas.answer, wire } } : {}),
    },
    schema: {
      tags,
      summary: route.summary,
      ...(schemas.query ? { querystring: schemas.query } : {}),
      ...(schemas.params ? { params: schemas.params } : {}),
      ...(schemas.body ? { body: schemas.body } : {}),
      ...(answered ? { response: { 200: answerSchema(schemas.answer, wire) } } : {}),
    } as ContractSchema<S>,
    ...(answered ? { serializerCompiler: fjsCompiler } : {}),
  };
}

/**
 * Tests only (`NODE_ENV=test`; docs/api.md "Answers"): each 200 answer of a declared route — the envelope's `data`, or
 * the whole plain answer — as the client would read it (JSON) must parse with the declared schema; one that does not
 * is answered 500 with what did not fit (and logged), so the test that reached it fails. Production only serialises with the
 * schema (an allowlist) and never refuses an answer for it.
 */
export function checkAnswers(app: FastifyInstance): void {
  app.addHook('preSerialization', (req, reply, payload: unknown, done) => {
    const answer = req.routeOptions.config?.answer;
    if (!answer || reply.statusCode !== 200) return done(null, payload);
    const envelope = payload as { success?: unknown; data?: unknown } | null;
    if (answer.wire === 'envelope' && envelope?.success !== true) return done(null, payload);
    const value = answer.wire === 'envelope' ? envelope!.data : payload;
    const parsed = answer.schema.safeParse(value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
    if (parsed.success) return done(null, payload);
    const where = `${req.method} ${req.routeOptions.url}`;
    const msg = `${where} answered outside its declared schema: ${z.prettifyError(parsed.error)}`;
    req.log.error(msg);
    reply.code(500);
    done(null, fail(500, msg));
  });
}
