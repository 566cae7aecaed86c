import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * The display names of the records `ids` refers to (a list's client or NVR names, docs/resources.md "Decorate"),
 * read in the caller's transaction and tenant: id → name. Ids of no record (or of another tenant) are absent.
 */
export async function namesByIds(
  tx: Db,
  tenantId: string,
  cols: { id: PgColumn; name: PgColumn; tenantId: PgColumn },
  ids: Iterable<unknown>,
): Promise<Map<string, string | null>> {
  const wanted = [...new Set([...ids].filter((v) => v !== null && v !== undefined && v !== '').map(String))];
  if (!wanted.length) return new Map();
  const rows = await tx
    .select({ id: cols.id, name: cols.name })
    .from(cols.id.table)
    .where(and(eq(cols.tenantId, tenantId), inArray(cols.id, wanted)));
  return new Map(rows.map((r) => [String(r.id), (r.name as string | null) ?? null]));
}
