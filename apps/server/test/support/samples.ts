import type { FieldDef } from '@atrium/contract';
import type { Binding } from '../../src/platform/resource.ts';
import { withTenant } from '../../src/platform/tenant-db.ts';
import type { AuthContext } from '../../src/platform/tokens.ts';
import { client, type TestApp } from '../harness.ts';

/**
 * Valid records made from the resource definitions alone (docs/resources.md "Checks"): the conformance suite
 * round-trips them, the isolation suite fills tenant A with one of each. A field whose value cannot be made from its
 * kind says how in its definition (`sample`); a required reference takes the first option of its picker.
 */
let seq = 0;

/** A valid value of a field from its kind (undefined for a reference: see `refSample`). */
export function sampleOf(f: FieldDef, name: string, width: number | undefined): unknown {
  if (f.sample !== undefined) return f.sample;
  seq += 1;
  switch (f.kind) {
    case 'text':
    case 'textarea': {
      const v = `c${seq}x${name}`.slice(0, Math.min(width ?? 64, f.max ?? 64));
      return v.length >= (f.min ?? 1) ? v : v.padEnd(f.min ?? 1, 'x');
    }
    case 'secret':
      return `Secret#${seq}xyz`.padEnd(f.min ?? 1, 'x');
    case 'int':
      return Math.max(f.min ?? 0, Math.min(f.max ?? 100, 1));
    case 'decimal':
      return Math.max(f.min ?? 0, Math.min(f.max ?? 100, 1.5));
    case 'switch':
      return 1;
    case 'date':
      return '2030-01-02';
    case 'datetime':
      return '2030-01-02T03:04:05.000Z';
    case 'dict':
      return f.values?.[0] ?? (f.keys === 'int' ? 1 : 'a');
    case 'region':
      return '110101';
    case 'upload':
      return '/files/sample.png';
    case 'ref':
      return undefined;
  }
}

/** A required reference without a sample: the first record its picker offers to the writer. */
export async function refSample(t: TestApp, f: FieldDef, token: string): Promise<string | undefined> {
  if (f.kind !== 'ref') return undefined;
  const res = await client(t, token).get(f.options.url);
  const data = res.json().data as { records?: { id: string }[] } | { id: string }[] | null;
  const list = Array.isArray(data) ? data : (data?.records ?? []);
  return list[0]?.id;
}

/** A valid body of a definition for the writer holding `token`: every writable field that has a sample. */
export async function sampleBody(t: TestApp, b: Binding, token: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(b.def.fields)) {
    if (f.readOnly || f.virtual) continue;
    let v = sampleOf(f, name, b.widths[name]);
    if (v === undefined && f.required) v = await refSample(t, f, token);
    if (v === undefined && f.required) throw new Error(`${b.def.code}.${name}: required, give it a sample`);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** Records of this resource come from the business (`create: false`, `readOnly`): the binding's fixture makes one. */
export const madeByFixture = (b: Binding) => b.def.create === false || !!b.def.readOnly;

/** A record made by the binding's fixture in `tenantId`, as the business makes it; answers its id. */
export async function fixtureRecord(t: TestApp, b: Binding, tenantId: string): Promise<string> {
  if (!b.hooks.fixture)
    throw new Error(`${b.def.code}: its records come from the business, give the binding a fixture`);
  return withTenant(t.services.db, tenantId, (tx) => b.hooks.fixture!({ tx, auth: { tenantId } as AuthContext }));
}

/**
 * One record of a resource in the writer's tenant: through the definition's add call with a sample body, or by the
 * fixture. Answers its id.
 */
export async function sampleRecord(t: TestApp, b: Binding, token: string, tenantId: string): Promise<string> {
  if (madeByFixture(b)) return fixtureRecord(t, b, tenantId);
  const body = await sampleBody(t, b, token);
  const res = await client(t, token).post(`${b.def.base}/${b.def.createPath ?? 'submit'}`, body);
  if (res.statusCode !== 200) throw new Error(`${b.def.code}: sample insert failed: ${res.body.slice(0, 300)}`);
  return String(res.json().data.id);
}
