import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesOf, msg, requiredText, type Msg, type ResourceDef } from '@atrium/contract';
import { sql } from 'drizzle-orm';
import type { Binding } from '../../src/platform/resource.ts';
import { withTenant } from '../../src/platform/tenant-db.ts';
import { client, createTestApp, loginToken, provisionedTenant, type TestApp } from '../harness.ts';
import { fixtureRecord, madeByFixture, refSample, sampleBody, sampleOf } from './samples.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { dbOfTenant, MOVE_NETWORKS, moveTenant, type TenantDatabase } from './moved.ts';

/**
 * The conformance suite, generated from the resource definitions (docs/resources.md "Checks"): every bound
 * resource gets the same tests, so a new resource is covered without anyone listing it. A resource whose required
 * field cannot be made from its kind says how in its definition (`sample`); the samples are made by
 * test/support/samples.ts, shared with the isolation suite. `moved` (PostgreSQL): the writing tenant lives on a
 * database of its own (test/conformance-moved.test.ts; docs/tenants.md "Tests of a moved tenant").
 */
export async function conformanceSuite(moved: boolean): Promise<void> {
  // Built before the tests are collected: the tests are generated from the bindings the app makes.
  const t: TestApp = await createTestApp(moved ? { datasourcePrivateNetworks: MOVE_NETWORKS } : {});
  let target: TenantDatabase | undefined;
  /** The resources this app bound (docs/server.md "Registries"). */
  const bindings = t.services.registry.bindings;
  let platform: string;
  let A: string;
  let B: string;

  /** The token that may write a resource: the tenant's admin for tenant resources, else the platform admin. */
  const writerOf = (def: ResourceDef) => (def.scope === 'tenant' && !def.platformOnly ? A : platform);

  const normal = (v: unknown) => (v instanceof Date ? v.toISOString() : typeof v === 'string' ? v.trim() : v);

  const INT_MIN = -2147483648;
  const INT_MAX = 2147483647;

  /** For each writable field, the value its kind refuses and the message it answers (contract schema.ts, dictionaries). */
  function refusals(b: Binding): { field: string; value: unknown; text: Msg }[] {
    const out: { field: string; value: unknown; text: Msg }[] = [];
    for (const [field, f] of Object.entries(b.def.fields)) {
      // Fields the module parses itself (docs/resources.md "Kinds and columns") answer with their own texts.
      if (f.readOnly || f.virtual || b.hooks.columnTypes?.[field]) continue;
      const label = f.label;
      switch (f.kind) {
        case 'dict': {
          const value = f.keys === 'int' ? 987654 : 'zz-no-such-key';
          if (f.values?.map(String).includes(String(value))) break;
          const text = f.invalid ?? (f.values ? msg('notInList', { label }) : msg('notInDict', { label, value }));
          out.push({ field, value, text });
          break;
        }
        case 'date':
          out.push({ field, value: '27/11/2026', text: f.invalid ?? msg('notDay', { label }) });
          break;
        case 'datetime':
          out.push({ field, value: 'the day after', text: msg('notDate', { label }) });
          break;
        case 'int': {
          const min = f.min ?? INT_MIN;
          const max = f.max ?? INT_MAX;
          out.push({ field, value: max + 1, text: f.invalid ?? msg('outOfRange', { label, min, max }) });
          if (f.min !== undefined)
            out.push({ field, value: min - 1, text: f.invalid ?? msg('outOfRange', { label, min, max }) });
          break;
        }
        case 'text':
        case 'textarea':
        case 'secret':
        case 'upload': {
          // A field kept elsewhere has no column width: the definition's max, else the schema's 255.
          const max = b.widths[field] ?? (f.max || 255);
          out.push({ field, value: 'x'.repeat(max + 1), text: msg('tooLong', { label, max }) });
          break;
        }
      }
    }
    return out;
  }

  /** Every row of a binding's table the writer's tenant sees, removed ones included. */
  async function rowCount(b: Binding): Promise<number> {
    const tenant = writerOf(b.def) === A ? '720001' : '000000';
    const rows = await withTenant(t.services.db, tenant, (tx) =>
      rowsOf<{ n: number }>(tx, sql`select count(*)::int as n from ${b.table}`),
    );
    return rows[0].n;
  }

  beforeAll(async () => {
    platform = (await loginToken(t)).access;
    A = (await provisionedTenant(t, platform, '720001')).token;
    B = (await provisionedTenant(t, platform, '720002')).token;
    if (moved) {
      target = await moveTenant(t, platform, '720001');
      // Its rows are read and written on its own database from here on.
      expect(dbOfTenant(t, '720001')).not.toBe(t.services.db);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await target?.drop();
  });

  const title = 'resource conformance (generated from the definitions)';
  describe(moved ? `${title}, the writing tenant on its own database` : title, () => {
    it('binds every ported resource', () => {
      // The outbox is a read-only resource (list and detail only): bound like the others, so covered like them.
      expect([...bindings.keys()]).toEqual(expect.arrayContaining(['post', 'blackinfo', 'outbox', 'client']));
    });

    it('declares every secret-named field as a secret, so the checks below cover it', () => {
      const named = [...bindings.values()].flatMap((b) =>
        Object.entries(b.def.fields)
          .filter(([name]) => /secret|password/i.test(name))
          .map(([name, f]) => `${b.def.code}.${name}: ${f.kind}`),
      );
      expect(named.length).toBeGreaterThan(0);
      expect(named.filter((x) => !x.endsWith(': secret'))).toEqual([]);
    });

    it.each([...bindings.values()].map((b) => [b.def.code, b] as const))(
      '%s: round trip, messages in both languages, 409, unique, allowlists, isolation, no secrets',
      async (_code, b) => {
        const { def } = b;
        const codes = codesOf(def);
        const base = def.base;
        const zh = client(t, writerOf(def));
        const en = client(t, writerOf(def), 'en');
        const body = await sampleBody(t, b, writerOf(def));
        // Inserts go to the definition's add call (`createPath`) when it has one; `submit` then only updates.
        const create = `${base}/${def.createPath ?? 'submit'}`;
        const tenantOf = def.scope === 'tenant' && !def.platformOnly ? '720001' : '000000';

        // A read-only resource has no write route at all: its submit, remove and add calls do not exist.
        if (def.readOnly) {
          const writes = t.routeTable.filter((r) => r.url.startsWith(`${base}/`) && r.method !== 'GET');
          const actionPaths = Object.entries(def.actions ?? {}).map(([n, a]) => `${base}/${a.path ?? n}`);
          expect([def.code, writes.map((r) => r.url).filter((u) => !actionPaths.includes(u))]).toEqual([def.code, []]);
          for (const path of ['submit', 'remove', 'save'])
            expect([def.code, path, (await zh.post(`${base}/${path}`, body)).statusCode]).toEqual([
              def.code,
              path,
              404,
            ]);
        }

        // Insert and read back: every field sent comes back as sent; the success text follows the language. A
        // resource whose records come from the business refuses the insert (or has none) and gets its record from its
        // fixture.
        let added = def.readOnly ? undefined! : await zh.post(create, body);
        if (madeByFixture(b)) {
          if (def.create === false)
            expect([def.code, added.statusCode, added.json().msg]).toEqual([def.code, 400, msg('createRefused').zh]);
          const id = await fixtureRecord(t, b, tenantOf);
          added = await zh.get(`${base}/detail?id=${id}`);
          expect([def.code, added.statusCode]).toEqual([def.code, 200]);
          const made = added.json().data as Record<string, unknown>;
          for (const k of Object.keys(body)) body[k] = made[k];
        } else {
          expect([def.code, added.statusCode, added.body.slice(0, 300)]).toEqual([
            def.code,
            200,
            added.body.slice(0, 300),
          ]);
          expect(added.json().msg).toBe('新增成功');
        }
        const row = added.json().data as Record<string, unknown>;
        // With a separate add call, `submit` without an id adds nothing.
        if (def.createPath)
          expect([def.code, (await zh.post(`${base}/submit`, body)).statusCode]).toEqual([def.code, 400]);
        const detail = (await zh.get(`${base}/detail?id=${row.id}`)).json().data as Record<string, unknown>;
        for (const [k, v] of Object.entries(body)) {
          const f = def.fields[k];
          if (f.kind === 'secret' || f.column === false) continue;
          const got = detail[k];
          const want = f.kind === 'datetime' ? new Date(String(v)).toISOString() : normal(v);
          expect([def.code, k, f.kind === 'text' && k === 'value' ? String(got) : got]).toEqual([def.code, k, want]);
        }

        // Required fields: each is named, by its own message, in zh and in en.
        for (const [lang, c] of def.readOnly
          ? []
          : ([
              ['zh', zh],
              ['en', en],
            ] as const)) {
          const empty = await c.post(create, {});
          const required = Object.entries(def.fields).filter(([, f]) => f.required && !f.readOnly && !f.virtual);
          if (def.create === false) {
            expect([def.code, lang, empty.statusCode, empty.json().msg]).toEqual([
              def.code,
              lang,
              400,
              msg('createRefused')[lang],
            ]);
            continue;
          }
          if (!required.length) continue;
          expect([def.code, lang, empty.statusCode]).toEqual([def.code, lang, 400]);
          const fields = empty.json().data as { field: string; message: string }[];
          for (const [name, f] of required) {
            expect([def.code, lang, name, fields.find((x) => x.field === name)?.message]).toEqual([
              def.code,
              lang,
              name,
              requiredText(f)![lang],
            ]);
          }
          // The summary names fields by their messages, never by their keys.
          for (const [name] of required) expect(empty.json().msg).not.toContain(`${name}:`);
        }

        // A stale version is a 409; the current one saves and says so in English when asked.
        let updated: typeof added | undefined;
        if (!def.readOnly) {
          const stale = await zh.post(`${base}/submit`, { ...body, id: row.id, version: Number(row.version) + 5 });
          expect([def.code, stale.statusCode]).toEqual([def.code, 409]);
          updated = await en.post(`${base}/submit`, { ...body, id: row.id, version: row.version });
          expect([def.code, updated.statusCode, updated.json().msg]).toEqual([def.code, 200, 'Updated']);
        }

        // Unique fields: the same values again are a field error with one of the definition's texts.
        const uniques = Object.entries(def.fields).filter(([, f]) => f.unique);
        if (uniques.length && !def.readOnly) {
          const dup = await en.post(create, body);
          expect([def.code, dup.statusCode]).toEqual([def.code, 400]);
          const { msg: text, data } = dup.json() as { msg: string; data: { field: string }[] };
          const hit = uniques.find(([name, f]) => f.unique!.en === text && data?.[0]?.field === name);
          expect([def.code, text, hit ? 'named' : 'unnamed']).toEqual([def.code, text, 'named']);
        }

        // Lists: unknown filters and sorts are 400s, prototype names included; declared ones answer.
        const list = `${base}/${def.listPath ?? 'list'}`;
        for (const bad of [
          'nosuchfield=1',
          '__proto__=1',
          'constructor=1',
          'descs=nosuch',
          'ascs=__proto__',
          'ascs=toString',
        ]) {
          const res = await zh.get(`${list}?${bad}`);
          expect([def.code, bad, res.statusCode]).toEqual([def.code, bad, 400]);
        }
        for (const [name, f] of Object.entries(def.fields)) {
          if (f.search === 'in' || f.search === 'eq') {
            // The record's own value (sent, or as the fixture made it) must find it.
            const known = body[name] ?? (madeByFixture(b) && row[name] != null ? row[name] : undefined);
            const v = known ?? sampleOf(f, name, b.widths[name]);
            if (v === undefined) continue;
            const res = await zh.get(`${list}?size=1000&${name}=${encodeURIComponent(String(v))}`);
            expect([def.code, name, res.statusCode]).toEqual([def.code, name, 200]);
            if (known !== undefined)
              expect([def.code, name, res.json().data.records.map((r: { id: string }) => r.id)]).toEqual([
                def.code,
                name,
                expect.arrayContaining([row.id]),
              ]);
          }
          if (f.search === 'range') {
            const res = await zh.get(`${list}?${name}_${f.kind.startsWith('date') ? 'dategt' : 'gte'}=x`);
            expect([def.code, name, res.statusCode]).toEqual([def.code, name, 400]);
          }
          if (f.sort) expect((await zh.get(`${list}?descs=${name}`)).statusCode).toBe(200);
        }

        // No secret value in any answer: a secret is answered as its mask or not at all; with `reveal: 'insert'` the
        // insert's answer carries the value sent, once (docs/resources.md "Secrets").
        const secrets = Object.entries(def.fields).filter(([, f]) => f.kind === 'secret');
        const answers = [
          ['insert', added],
          ['update', updated],
          ['detail', await zh.get(`${base}/detail?id=${row.id}`)],
          ['list', await zh.get(list)],
        ] as const;
        for (const [which, answer] of answers) {
          if (!answer) continue;
          const data = answer.json().data as Record<string, unknown> & { records?: Record<string, unknown>[] };
          const records = which === 'list' ? data.records! : [data];
          for (const [name, f] of secrets) {
            if (f.kind !== 'secret') continue;
            // (A fixture's record carries what the answers carry: only a sent value is looked for.)
            const sent = madeByFixture(b) ? undefined : body[name];
            if (which === 'insert' && f.reveal === 'insert' && !madeByFixture(b)) {
              expect([def.code, name, which, data[name]]).toEqual([def.code, name, which, sent]);
              continue;
            }
            if (sent !== undefined)
              expect([def.code, name, which, answer.body.includes(String(sent))]).toEqual([
                def.code,
                name,
                which,
                false,
              ]);
            if (f.mask === undefined)
              expect([def.code, which, answer.body.includes(`"${name}"`)]).toEqual([def.code, which, false]);
            for (const r of records) expect([def.code, name, which, r[name]]).toEqual([def.code, name, which, f.mask]);
          }
        }

        // Another tenant: never sees it, never changes or removes it, not even by naming its id.
        const tenantScoped = def.scope === 'tenant' && !def.platformOnly;
        if (tenantScoped) {
          const b2 = client(t, B);
          expect((await b2.get(`${base}/detail?id=${row.id}`)).statusCode).toBe(404);
          // (A read-only resource has no such routes: 404 all the same.)
          expect((await b2.post(`${base}/submit`, { ...body, id: row.id })).statusCode).toBe(404);
          expect((await b2.post(`${base}/remove?ids=${row.id}`)).statusCode).toBe(404);
          for (const [name, a] of Object.entries(def.actions ?? {})) {
            // A valid input, so the id is what answers.
            const input: Record<string, unknown> = {};
            for (const [k, f] of Object.entries(a.input ?? {})) {
              let v = sampleOf(f, k, undefined);
              // A required reference: the first record of B's own picker.
              if (v === undefined && f.required && f.kind === 'ref') {
                const id = await refSample(t, f, B);
                v = f.multiple ? [id] : id;
              }
              if (v !== undefined) input[k] = v;
            }
            const idField = a.idField ?? (a.target === 'many' ? 'ids' : 'id');
            const res = await b2.post(`${base}/${a.path ?? name}?${idField}=${row.id}`, input);
            expect([def.code, name, res.statusCode]).toEqual([def.code, name, 404]);
          }
          const theirs = await b2.get(`${list}?size=1000`);
          expect(theirs.body).not.toContain(String(row.id));
        }

        // A caller without the codes is refused (403 names the code).
        const bare = client(t, B);
        if (!tenantScoped) {
          expect((await bare.post(`${base}/remove?ids=${row.id}`)).statusCode).toBe(403);
        } else {
          expect(codes.remove).toBe(`${def.code}_delete`);
        }

        // Remove: the answer follows the language; the record is gone. A read-only record stays.
        if (def.readOnly) return;
        const removed = await en.post(`${base}/remove?ids=${row.id}`);
        expect([def.code, removed.statusCode, removed.json().msg]).toEqual([def.code, 200, 'Deleted']);
        expect((await zh.get(`${base}/detail?id=${row.id}`)).statusCode).toBe(404);
      },
    );
    // Each kind's refusals (docs/resources.md "Checks"): a value of the right shape that the kind does not accept is a
    // 400 naming the field by its message, and no row is written.
    it.each(
      [...bindings.values()]
        .filter((b) => b.def.create !== false && !b.def.readOnly)
        .map((b) => [b.def.code, b] as const),
    )(
      '%s: refuses an unknown dict value, a wrong date, an int out of range and a text too long; writes nothing',
      async (_code, b) => {
        const { def } = b;
        const create = `${def.base}/${def.createPath ?? 'submit'}`;
        const body = await sampleBody(t, b, writerOf(def));
        const cases = refusals(b);
        const before = await rowCount(b);
        for (const lang of ['zh', 'en'] as const) {
          const c = client(t, writerOf(def), lang === 'en' ? 'en' : undefined);
          for (const { field, value, text } of cases) {
            const res = await c.post(create, { ...body, [field]: value });
            const data = res.json().data as unknown;
            const fields = (Array.isArray(data) ? data : []) as { field: string; message: string }[];
            const found = fields.find((x) => x.field === field)?.message ?? res.body.slice(0, 200);
            expect([def.code, field, lang, res.statusCode, found]).toEqual([def.code, field, lang, 400, text[lang]]);
            expect(res.json().msg).toContain(text[lang]);
          }
        }
        expect([def.code, await rowCount(b)]).toEqual([def.code, before]);
      },
    );
  });
}
