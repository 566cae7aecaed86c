import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, createTestApp, loginToken, provisionedTenant, type TestApp } from '../harness.ts';

/**
 * A bounded fuzzer driven by the OpenAPI document (`/api/docs/json`): for every route it sends wrong types, missing
 * fields, out-of-range numbers and ids, NUL bytes, over-long strings, prototype property names and malformed JSON,
 * with and without a token; malformed and hostile multipart bodies to every POST route (so every multipart route,
 * listed or not); and to every public route (one that answers without a token something other than the guard's
 * 401) requests without any `Authorization` and with malformed Basic headers. Path parameters take the bad values
 * too. No answer may be a 5xx, and none may carry a stack, SQL or a password hash.
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
type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

/**
 * Where a bad value can sit in a body of this schema: one builder per property, nested ones included (objects,
 * array items, the members of a union), each putting the value at that one place.
 */
function placesIn(schema: Schema | undefined, depth = 0): ((v: unknown) => unknown)[] {
  if (!schema || depth > 4) return [];
  const out: ((v: unknown) => unknown)[] = [];
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    out.push(...placesIn(alt, depth + 1));
  for (const inner of placesIn(schema.items, depth + 1)) out.push((v) => [inner(v)]);
  for (const [k, sub] of Object.entries(schema.properties ?? {})) {
    out.push((v) => ({ [k]: v }));
    for (const inner of placesIn(sub, depth + 1)) out.push((v) => ({ [k]: inner(v) }));
  }
  const seen = new Set<string>();
  return out.filter((b) => {
    const key = JSON.stringify(b('§'));
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

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
const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64');
/** Basic headers a client might send: NUL and control bytes, no colon, not base64, over-long, not UTF-8. */
const BAD_BASIC = [
  `Basic ${b64('sa\u0000ber:saber_secret')}`,
  `Basic ${b64('saber:saber\u0000secret')}`,
  `Basic ${b64('\u0000')}`,
  `Basic ${b64('sa\nber:x')}`,
  `Basic ${b64(':')}`,
  `Basic ${b64('saber')}`,
  `Basic ${b64(`${LONG}:${LONG}`)}`,
  `Basic ${b64(Buffer.from([0xff, 0xfe, 0x3a, 0xc3]))}`,
  `Basic ${b64('__proto__:constructor')}`,
  'Basic',
  'Basic ====',
  'Basic !!!',
  'Bearer x',
  '\u0000',
];
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const filePart = (boundary: string, name: string, filename: string, body: string | Buffer, type = 'image/png') =>
  Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    Buffer.from(body),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
/** Multipart bodies: no, empty or wrong boundary, cut short, unended headers, hostile names, two files, fields only. */
const BAD_MULTIPART: [string, Buffer][] = [
  ['multipart/form-data', filePart('x', 'file', 'a.png', PNG)],
  ['multipart/form-data; boundary=', filePart('x', 'file', 'a.png', PNG)],
  ['multipart/form-data; boundary=yyy', filePart('x', 'file', 'a.png', PNG)],
  ['multipart/form-data; boundary=x', filePart('x', 'file', 'a.png', PNG).subarray(0, 70)],
  ['multipart/form-data; boundary=x', filePart('x', 'file', 'a.png', PNG).subarray(0, 130)],
  ['multipart/form-data; boundary=x', Buffer.from('--x\r\nContent-Disposition: form-data; name="file"')],
  ['multipart/form-data; boundary=x', Buffer.from('\u0000\u0001--x--')],
  ['multipart/form-data; boundary=x', filePart('x', 'file', 'a\u0000b.png', PNG)],
  ['multipart/form-data; boundary=x', filePart('x', 'file', `${LONG}.png`, PNG)],
  ['multipart/form-data; boundary=x', filePart('x', '__proto__', 'a.png', PNG)],
  ['multipart/form-data; boundary=x', filePart('x', 'file', 'a.xlsx', 'PK\u0003\u0004broken', 'application/zip')],
  [
    'multipart/form-data; boundary=x',
    Buffer.concat([filePart('x', 'file', 'a.png', PNG).subarray(0, -4), filePart('x', 'file', 'b.png', PNG)]),
  ],
  [
    'multipart/form-data; boundary=x',
    Buffer.from('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'),
  ],
];
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
      let publicRoutes = 0;
      /** `basic`: the Authorization header instead of the good client's; null sends none. */
      const send = async (
        method: string,
        url: string,
        token: string | null,
        payload?: string | Buffer,
        type?: string,
        basic: string | null = BASIC,
      ) => {
        sent += 1;
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: {
            ...(basic !== null ? { authorization: basic } : {}),
            ...(token ? { 'blade-auth': `bearer ${token}` } : {}),
            ...(payload !== undefined ? { 'content-type': type ?? 'application/json' } : {}),
          },
          ...(payload !== undefined ? { payload } : {}),
        });
        const leak = LEAKS.find((re) => re.test(res.body));
        if (res.statusCode >= 500 || leak)
          problems.push(
            `${method.toUpperCase()} ${url.slice(0, 120)} ${type ?? ''} ${basic?.slice(0, 40) ?? 'no-basic'} ${String(payload ?? '').slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 160)}`,
          );
        return res;
      };
      // The guard's answer to a call without a token: a route answering anything else is public.
      const guarded = await t.app.inject({ method: 'GET', url: '/api/blade-user/info' });
      expect(guarded.statusCode).toBe(401);
      const isPublic = async (method: string, url: string) => {
        const res = await send(method, url, null, method === 'post' ? '{}' : undefined);
        return res.statusCode !== guarded.statusCode || res.json().msg !== guarded.json().msg;
      };
      const all = Object.entries(doc.paths)
        .filter(([p]) => p.startsWith('/api/') && !p.includes('/oauth/logout'))
        .sort(([a], [b]) => (a < b ? -1 : 1));
      expect(all.length).toBeGreaterThan(80);
      const paths = all.filter((_, i) => i % FUZZ_SHARDS === shard - 1);
      for (const [template, ops] of paths) {
        // Path parameters: a plain value here, each bad value below.
        const params = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const path = template.replace(/\{\w+\}/g, 'x1');
        for (const [method, op] of Object.entries(ops)) {
          for (const v of params.length ? BAD_VALUES : [])
            await send(method, template.replace(/\{\w+\}/g, encodeURIComponent(String(v))), null);
          // A public route: without any Authorization, and with each malformed Basic header.
          if (await isPublic(method, path)) {
            publicRoutes += 1;
            const body = method === 'post' ? '{}' : undefined;
            await send(method, path, null, body, undefined, null);
            for (const basic of BAD_BASIC) await send(method, path, null, body, undefined, basic);
          }
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
          const places = placesIn(op.requestBody?.content?.['application/json']?.schema);
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
            for (const [type, body] of BAD_MULTIPART) await send(method, path, token, body, type);
            for (const place of places) {
              for (const v of BAD_BODY_VALUES) await send(method, path, token, JSON.stringify(place(v)));
            }
            await send(method, path, token, `{${PROTO_KEYS.map((k) => `"${k}":{"polluted":1}`).join(',')}}`);
          }
        }
      }
      console.log(
        `fuzzer shard ${shard}: ${sent} requests over ${paths.length} paths (${publicRoutes} public), ${problems.length} problems`,
      );
      expect(sent).toBeGreaterThan(2000 / FUZZ_SHARDS);
      expect(problems).toEqual([]);
    }, 600_000);
  });
}
