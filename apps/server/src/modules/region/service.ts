import { and, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { fill, type Msg } from '@atrium/contract';
import { apiTexts } from '@atrium/contract/schemas';
import { REGION_LEVELS, REGION_NAMES_MAX, REGION_ROOT, regionLevel } from '@atrium/contract/resources/system/region';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { regionTexts as texts } from './messages.ts';
import { region } from './table.ts';
import { rowsOf } from '../../db/rows.ts';

/** The rules of the region tree (docs/product.md "Regions"), shared by submit, import and the seed. */

export type RegionRow = typeof region.$inferSelect;

/** The columns a region takes from its place in the tree: parent, path, level, and the code and name of each level. */
export type Placement = Pick<
  RegionRow,
  | 'parentCode'
  | 'ancestors'
  | 'level'
  | 'provinceCode'
  | 'provinceName'
  | 'cityCode'
  | 'cityName'
  | 'districtCode'
  | 'districtName'
  | 'townCode'
  | 'townName'
  | 'villageCode'
  | 'villageName'
>;

/** What a child needs of its parent. */
export type ParentRow = Pick<RegionRow, 'code' | 'ancestors'> & Partial<Placement>;

type LevelKey = `${(typeof REGION_LEVELS)[number]}${'Code' | 'Name'}`;

/**
 * The placement of `code` named `name` below `parent` (null: a province, below the root '00'): the levels above come
 * from the parent, its own level is itself, the levels below are empty. (A literal object: bulk imports spread
 * tens of thousands of these.)
 */
export function placement(parent: ParentRow | null, code: string, name: string): Placement {
  const level = regionLevel(code);
  const at = (i: number, part: 'Code' | 'Name'): string | null => {
    if (i === level - 1) return part === 'Code' ? code : name;
    if (i > level - 1) return null;
    return (parent?.[`${REGION_LEVELS[i]}${part}` as LevelKey] as string | null | undefined) ?? null;
  };
  return {
    parentCode: parent?.code ?? REGION_ROOT,
    ancestors: parent ? `${parent.ancestors},${parent.code}` : REGION_ROOT,
    level,
    provinceCode: at(0, 'Code'),
    provinceName: at(0, 'Name'),
    cityCode: at(1, 'Code'),
    cityName: at(1, 'Name'),
    districtCode: at(2, 'Code'),
    districtName: at(2, 'Name'),
    townCode: at(3, 'Code'),
    townName: at(3, 'Name'),
    villageCode: at(4, 'Code'),
    villageName: at(4, 'Name'),
  };
}

const codeColumnOf = (level: number): PgColumn =>
  region[`${REGION_LEVELS[level - 1]}Code` as 'provinceCode'] as PgColumn;

/** A renamed region: every live region below it carries the new name in its level's name column. */
export async function renameBelow(tx: Db, code: string, name: string): Promise<void> {
  const level = regionLevel(code);
  if (!level) return;
  await tx
    .update(region)
    .set({ [`${REGION_LEVELS[level - 1]}Name` satisfies keyof typeof region.$inferInsert]: name })
    .where(and(eq(codeColumnOf(level), code), ne(region.code, code), eq(region.isDeleted, 0)));
}

/** Live regions by code: the codes travel as one JSON parameter, however many a file names. */
export async function liveByCodes(tx: Db, codes: string[]): Promise<Map<string, RegionRow>> {
  const unique = [...new Set(codes)];
  if (!unique.length) return new Map();
  const rows = await tx
    .select()
    .from(region)
    .where(
      and(
        sql`${region.code} in (select json_array_elements_text(${JSON.stringify(unique)}::json))`,
        eq(region.isDeleted, 0),
      ),
    );
  return new Map(rows.map((r) => [r.code, r]));
}

/** Which of these codes have live children. */
export async function parentsAmong(tx: Db, codes: string[]): Promise<Set<string>> {
  if (!codes.length) return new Set();
  const rows = await tx
    .selectDistinct({ parentCode: region.parentCode })
    .from(region)
    .where(and(inArray(region.parentCode, codes), eq(region.isDeleted, 0)));
  return new Set(rows.map((r) => r.parentCode));
}

/**
 * Checks that refuse removing regions still in use: each answers the first code of `codes` it still uses, or null.
 * A module that stores region codes (devices, users' regions, configs by region) registers its own at start.
 */
export type RegionUsage = (tx: Db, codes: string[]) => Promise<string | null>;
declare module '../../platform/services.ts' {
  interface Registry {
    /** The app's region usages (docs/server.md "Registries"). */
    regionUsages?: RegionUsage[];
  }
}
export function registerRegionUsage(s: Services, check: RegionUsage): void {
  (s.registry.regionUsages ??= []).push(check);
}

/** The first of `codes` some module still uses, or null. */
export async function regionInUse(s: Services, tx: Db, codes: string[]): Promise<string | null> {
  for (const check of s.registry.regionUsages ?? []) {
    const used = await check(tx, codes);
    if (used) return used;
  }
  return null;
}

/**
 * Whether `code` is still some user's region or some client's region, in any tenant: those rows are under row-level
 * security, so a security-definer function of migration 0023_region_used_by_users looks across tenants and answers
 * one boolean (docs/clients.md "Regions in use").
 */
export async function regionUsedBy(tx: Db, kind: 'users' | 'clients', code: string): Promise<boolean> {
  const rows = await rowsOf<{ used: boolean | null }>(
    tx,
    kind === 'users'
      ? sql`select atrium_region_used_by_users(${code}) as used`
      : sql`select atrium_region_used_by_clients(${code}) as used`,
  );
  return rows[0]?.used === true;
}

/** Live region codes at or below `code` (all when empty): the filter of an export. */
export const subtreeOf = (code?: string) =>
  code ? and(eq(region.isDeleted, 0), sql`${region.code} like ${`${code}%`}`) : eq(region.isDeleted, 0);

/** The columns of a bulk write: the region's own, those it derives, and the audit columns. */
export const WRITTEN = [
  'id',
  'code',
  'parentCode',
  'ancestors',
  'name',
  'level',
  ...REGION_LEVELS.flatMap((l) => [`${l}Code`, `${l}Name`]),
  'sort',
  'remark',
  'createUser',
  'createDept',
  'createTime',
  'updateUser',
  'updateTime',
] as const;
/** What an import may change of an existing region (never its id, code or creation). */
const UPDATED = WRITTEN.filter((k) => !['id', 'code', 'createUser', 'createDept', 'createTime'].includes(k));
const COMPARED = UPDATED.filter((k) => k !== 'updateUser' && k !== 'updateTime');

const columns: Record<string, PgColumn> = getTableColumns(region);
const quoted = (k: string) => `"${columns[k].name}"`;

/**
 * Writes many regions in one statement: the rows travel as one JSON parameter (json_to_recordset), which the
 * embedded database takes far faster than thousands of bound parameters. `upsert`: a live region with the same code
 * is updated instead — unless nothing would change. Answers the codes inserted or changed.
 */
export async function writeRegions(
  tx: Db,
  rows: Partial<Record<(typeof WRITTEN)[number], unknown>>[],
  upsert = false,
): Promise<string[]> {
  if (!rows.length) return [];
  const names = WRITTEN.map(quoted).join(', ');
  const types = WRITTEN.map((k) => `${quoted(k)} ${columns[k].getSQLType()}`).join(', ');
  const json = JSON.stringify(rows.map((r) => Object.fromEntries(WRITTEN.map((k) => [columns[k].name, r[k] ?? null]))));
  const conflict = upsert
    ? sql.raw(
        ` on conflict ("code") where is_deleted = 0 do update set ${UPDATED.map((k) => `${quoted(k)} = excluded.${quoted(k)}`).join(', ')}, "version" = region."version" + 1` +
          ` where (${COMPARED.map((k) => `region.${quoted(k)}`).join(', ')}) is distinct from (${COMPARED.map((k) => `excluded.${quoted(k)}`).join(', ')})`,
      )
    : sql.raw('');
  const written = await rowsOf<{ code: string }>(
    tx,
    sql`insert into ${region} (${sql.raw(names)}) select ${sql.raw(names)} from json_to_recordset(${json}::json) as x(${sql.raw(types)})${conflict} returning "code"`,
  );
  return written.map((r) => r.code);
}

/** `codes`: a comma list of 1 to REGION_NAMES_MAX region codes (repeats count once); anything else is a 400 naming it. */
export function namesAsked(raw: string | undefined): string[] {
  const codes = [...new Set((raw ?? '').split(',').map((c) => c.trim()))].filter(Boolean);
  const refuse = (text: Msg) => badRequest(text, [{ field: 'codes', message: text }]);
  if (!codes.length) throw refuse(texts.codesRequired);
  if (codes.length > REGION_NAMES_MAX) throw refuse(fill(texts.tooManyCodes, { max: REGION_NAMES_MAX }));
  if (!codes.every((c) => /^\d{2,12}$/.test(c))) throw refuse(apiTexts.regionCode);
  return codes;
}

/** The names of the live regions among the codes, in the order asked (the national names: the same in every language). */
export async function regionNames(tx: Db, codes: string[]): Promise<{ code: string; name: string }[]> {
  const rows = await tx
    .select({ code: region.code, name: region.name })
    .from(region)
    .where(and(inArray(region.code, codes), eq(region.isDeleted, 0)));
  const byCode = new Map(rows.map((r) => [r.code, r.name]));
  return codes.filter((c) => byCode.has(c)).map((code) => ({ code, name: byCode.get(code)! }));
}
