import fjs from 'fast-json-stringify';

/**
 * Response schemas (docs/resources.md "Answers"): an answer is serialized from the JSON schema of its record, so
 * only declared properties leave the server (an allowlist) and serialization is compiled, not reflective.
 */
export type JsonSchema = Record<string, unknown>;

/** The route's serializer: fast-json-stringify over a plain JSON schema (the zod provider handles the rest). */
export const fjsCompiler = ({ schema }: { schema: unknown }) =>
  fjs(schema as Parameters<typeof fjs>[0]) as (data: unknown) => string;

export const envelopeSchema = (data: unknown): JsonSchema => ({
  type: 'object',
  properties: {
    code: { type: 'integer' },
    success: { type: 'boolean' },
    data: data ?? {},
    msg: { type: 'string' },
  },
});

export const pageSchema = (record: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: {
    records: { type: 'array', items: record },
    total: { type: 'integer' },
    size: { type: 'integer' },
    current: { type: 'integer' },
    pages: { type: 'integer' },
  },
});

export const arraySchema = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
