import { and, eq, ne } from 'drizzle-orm';
import { msg, type DictField, type FieldDef, type Msg, type ResourceDef } from '@atrium/contract';
import { dict, dictBiz } from '../db/schema/index.ts';
import { PLATFORM_TENANT } from './access.ts';
import { GLOBAL_SCOPE } from './cache.ts';
import type { Row } from './crud.ts';
import { badRequest } from './errors.ts';
import type { Services } from './services.ts';
import { withTenant } from './tenant-db.ts';

/**
 * A `dict` field's value must be a key of its dictionary (docs/resources.md "Dictionary values"): the system
 * dictionary (`dict`, one for every tenant) or, with `biz`, the tenant's business dictionary (`dict_biz`). A field
 * listing fixed `values` is judged by them alone (schema.ts), not here.
 */

/** The dict fields a body may carry that their dictionary judges. */
export function dictChecked(def: ResourceDef): [string, DictField][] {
  return Object.entries(def.fields).filter(
    (e): e is [string, DictField] => e[1].kind === 'dict' && !e[1].values && !e[1].readOnly && !e[1].virtual,
  );
}

/**
 * The live keys of one dictionary, through the cache: a write to either dictionary table moves its cache epoch
 * (platform/live.ts), so a key added or removed is seen at the next request. The read opens its own transaction:
 * call it before a save's transaction (PGlite has one connection, docs/resources.md "Server binding").
 */
export function dictKeys(s: Services, tenantId: string, code: string, biz = false): Promise<Set<string>> {
  const t = biz ? dictBiz : dict;
  return s.cache.getBuilt(
    biz ? tenantId : GLOBAL_SCOPE,
    `dict-keys:${code}`,
    // The system dictionaries on the main database (the platform tenant never moves): what is cached under '*' is
    // answered to every tenant, and a moved tenant's copy may lag by a sync (docs/tenants.md "Reference data on a data
    // source").
    () =>
      withTenant(s.db, biz ? tenantId : PLATFORM_TENANT, (tx) =>
        tx
          .select({ key: t.dictKey })
          .from(t)
          .where(
            and(
              biz ? eq(dictBiz.tenantId, tenantId) : undefined,
              eq(t.code, code),
              ne(t.parentId, '0'),
              eq(t.isDeleted, 0),
            ),
          ),
      ),
    (rows) => new Set(rows.map((r) => String(r.key))),
  );
}

/** A value of a dict field that its dictionary does not hold. */
export type DictMiss = { field: string; value: string };

/** The body's dict values missing from their dictionaries (read before the save's transaction). */
export async function dictMisses(
  s: Services,
  tenantId: string,
  fields: [string, DictField][],
  input: Record<string, unknown>,
): Promise<DictMiss[]> {
  const misses: DictMiss[] = [];
  for (const [name, f] of fields) {
    const v = input[name];
    if (v === undefined || v === null || v === '') continue;
    const values = f.multiple ? String(v).split(',') : [String(v)];
    const keys = await dictKeys(s, tenantId, f.dict, f.biz);
    for (const value of values) if (!keys.has(value)) misses.push({ field: name, value });
  }
  return misses;
}

/** The refusal of a missing value: the field's `invalid` text, else "{label}的取值 {value} 不存在". */
export function dictRefusal(f: FieldDef, miss: DictMiss) {
  const text: Msg = f.invalid ?? msg('notInDict', { label: f.label, value: miss.value });
  return badRequest(text, [{ field: miss.field, message: text }]);
}

/**
 * Refuses a save whose dict values are missing, inside its transaction: an update may keep the value the record
 * already holds (an entry removed since stays on its records until they are given another).
 */
export function refuseDictMisses(def: ResourceDef, misses: DictMiss[], existing: Row | null) {
  for (const miss of misses) {
    const f = def.fields[miss.field] as DictField;
    const stored = existing?.[miss.field];
    const held =
      stored === null || stored === undefined ? [] : f.multiple ? String(stored).split(',') : [String(stored)];
    if (!held.includes(miss.value)) throw dictRefusal(f, miss);
  }
}
