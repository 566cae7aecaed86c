import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { role } from '../../db/schema/index.ts';

/** The role aliases of the caller's roles: candidate groups of a task name roles by alias (`hr`). */
export async function aliasesOf(tx: Db, ctx: { tenantId: string; roleIds?: string[] }): Promise<string[]> {
  const ids = (ctx.roleIds ?? []).filter((r) => /^\d{1,19}$/.test(r));
  if (!ids.length) return [];
  const rows = await tx
    .select({ alias: role.roleAlias })
    .from(role)
    .where(and(eq(role.tenantId, ctx.tenantId), inArray(role.id, ids), eq(role.isDeleted, 0)));
  return rows.map((r) => r.alias);
}

/** The aliases as a text[] literal, for the overlap with a task's candidate roles (`&&`, the GIN index). */
export const aliasArray = (aliases: string[]) =>
  sql`array[${sql.join(
    aliases.map((a) => sql`${a}`),
    sql`, `,
  )}]::text[]`;
