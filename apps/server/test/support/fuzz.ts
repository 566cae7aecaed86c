import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, createTestApp, loginToken, provisionedTenant, type TestApp } from '../harness.ts';

/**
 * A bounded fuzzer driven by the OpenAPI document (`/api/docs/json`): for every route it sends wrong types, missing
 * fields, out-of-range numbers and ids, NUL bytes, over-long strings, prototype property names and malformed JSON,
 * with and without a token. No answer may be a 5xx, and none may carry a stack, SQL or a password hash.
 *
 * The routes are dealt round-robin to `FUZZ_SHARDS` files (`test/fuzz-<k>.test.ts`), each with its own app, so the
 * test workers share the fuzzer instead of one of them running it alone at the end of the suite. Every route of the
 * document lands in exactly one shard: a new route is fuzzed without anyone listing it.
 */
export const FUZZ_SHARDS = 4;
type Op = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Schema = { properties?: Record<string, unknown> };

const LONG = 'x'.repeat(3000);
const BAD_VALUES: unknown[] = [
  'abc',
  '-1',
  '0',
  '99999999999999999999999',
  '9223372036854775808',
  'a\u0000b',
  LONG,
  '10000-01-01 00:00:00',
  '__proto__',
  ' ',
];
const BAD_BODY_VALUES: unknown[] = [null, 1e20, -1, 'a\u0000b', LONG, [], {}, true, '99999999999999999999'];
const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'prototype'];
const LEAKS = [/\n\s+at \S+ \(/, /\bselect\b.+\bfrom\b/i, /\binsert into\b/i, /scrypt\$/, /Failed query/];

export function fuzzShard(shard: number): void {
  let t: TestApp;
  let platform: string;
  let tenant: string;
  beforeAll(async () => {
    t = await createTestApp();
    platform = (await loginToken(t)).access;
    tenant = (await provisionedTenant(t, platform, '750001')).token;
  });
  afterAll(async () => t?.close());

  if (shard === 1)
    it('has one test file per shard, so no route is left out', () => {
      const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
      const files = fs.readdirSync(dir).filter((f) => /^fuzz-\d+\.test\.ts$/.test(f));
      expect(files.sort()).toEqual(Array.from({ length: FUZZ_SHARDS }, (_, i) => `fuzz-${i + 1}.test.ts`).sort());
    });
  describe(`fuzzing the routes of the OpenAPI document, shard ${shard} of ${FUZZ_SHARDS}`, () => {
    it('never answers 5xx, a stack, SQL or a hash', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
        paths: Record<string, Record<string, Op>>;
      };
      const problems: string[] = [];
      let sent = 0;
      const send = async (method: string, url: string, token: string | null, payload?: string, type?: string) => {
        sent += 1;
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: {
            authorization: BASIC,
            ...(token ? { 'blade-auth': `bearer ${token}` } : {}),
            ...(payload !== undefined ? { 'content-type': type ?? 'application/json' } : {}),
          },
          ...(payload !== undefined ? { payload } : {}),
        });
        const leak = LEAKS.find((re) => re.test(res.body));
        if (res.statusCode >= 500 || leak)
          problems.push(
            `${method.toUpperCase()} ${url.slice(0, 120)} ${payload?.slice(0, 80) ?? ''} → ${res.statusCode} ${res.body.slice(0, 160)}`,
          );
      };
      const all = Object.entries(doc.paths)
        .filter(
          ([p]) =>
            p.startsWith('/api/') && !p.includes('/oauth/logout') && !p.endsWith('/put-file') && !p.includes('{'),
        )
        .sort(([a], [b]) => (a < b ? -1 : 1));
      expect(all.length).toBeGreaterThan(80);
      const paths = all.filter((_, i) => i % FUZZ_SHARDS === shard - 1);
      for (const [path, ops] of paths) {
        for (const [method, op] of Object.entries(ops)) {
          const names = [
            ...new Set([
              ...(op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
              'id',
              'ids',
              'current',
              'size',
              'parentId',
            ]),
          ];
          const props = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
          for (const token of [platform, tenant, null]) {
            // Query: each name with each bad value; prototype names as filters and sorts.
            for (const name of names) {
              for (const v of BAD_VALUES) {
                await send(
                  method,
                  `${path}?${encodeURIComponent(name)}=${encodeURIComponent(String(v))}`,
                  token,
                  method === 'post' ? '{}' : undefined,
                );
              }
            }
            for (const k of PROTO_KEYS) {
              await send(method, `${path}?${k}=1&ascs=${k}&descs=${k}`, token, method === 'post' ? '{}' : undefined);
            }
            if (method !== 'post') continue;
            // Bodies: malformed, empty, wrong types per property, prototype keys.
            for (const raw of ['{', '[]', 'null', '"x"', '{"a":', '\u0000']) await send(method, path, token, raw);
            await send(method, path, token, 'a=1&b=\u0000', 'application/x-www-form-urlencoded');
            await send(method, path, token, '--x\r\nbroken', 'multipart/form-data; boundary=x');
            for (const p of props) {
              for (const v of BAD_BODY_VALUES) await send(method, path, token, JSON.stringify({ [p]: v }));
            }
            await send(method, path, token, `{${PROTO_KEYS.map((k) => `"${k}":{"polluted":1}`).join(',')}}`);
          }
        }
      }
      console.log(`fuzzer shard ${shard}: ${sent} requests over ${paths.length} paths, ${problems.length} problems`);
      expect(sent).toBeGreaterThan(2000 / FUZZ_SHARDS);
      expect(problems).toEqual([]);
    }, 600_000);
  });
}
