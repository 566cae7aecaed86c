import { asc, count } from 'drizzle-orm';
import { fill, type Lang, type Msg } from '@atrium/contract';
import { region as def, REGION_LEVELS, REGION_ROOT, regionParent } from '@atrium/contract/resources/system/region';
import type { Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { badRequest } from '../../platform/errors.ts';
import { xlsxFile, type XlsxCell } from '../../platform/xlsx.ts';
import { planRows, type ImportError, type ImportRow } from './import.ts';
import { regionTexts as texts } from './messages.ts';
import { liveByCodes, renameBelow, subtreeOf, writeRegions, type RegionRow } from './service.ts';
import { region } from './table.ts';

/** The export and the import of regions as services (docs/system-api.md "Regions"): called by routes/files.ts. */

/** Most rows one export writes; a larger subtree is exported part by part. */
export const EXPORT_MAX_ROWS = 100_000;
/** Rows per statement of an import (one JSON parameter each). */
const IMPORT_CHUNK = 5000;

/** The regions of a subtree (or all), by code; more than EXPORT_MAX_ROWS is a 400. */
export async function exportRows(tx: Db, code: string | undefined): Promise<RegionRow[]> {
  const [{ n }] = await tx.select({ n: count() }).from(region).where(subtreeOf(code));
  if (n > EXPORT_MAX_ROWS) throw badRequest(fill(texts.exportTooLarge, { max: EXPORT_MAX_ROWS }));
  return tx.select().from(region).where(subtreeOf(code)).orderBy(asc(region.code));
}

/** The export's columns: the fields of the definition, labelled in the caller's language (bench/xlsx.ts writes them too). */
export const EXPORTED = [
  'code',
  'parentCode',
  'name',
  'level',
  'sort',
  'remark',
  'ancestors',
  ...REGION_LEVELS.flatMap((l) => [`${l}Code`, `${l}Name`]),
] as const;
/** The export's column widths, in characters. */
export const EXPORTED_WIDTHS = EXPORTED.map((k) =>
  k.endsWith('Name') || k === 'name' ? 20 : k === 'ancestors' ? 24 : 14,
);

export function exportFile(rows: RegionRow[], lang: Lang): Promise<Buffer> {
  const fields = def.fields as Record<string, { label: Msg }>;
  return xlsxFile({
    name: texts.sheetName[lang],
    heads: EXPORTED.map((k) => fields[k].label[lang]),
    rows: rows.map((r) => EXPORTED.map((k) => (r as Record<string, unknown>)[k] as XlsxCell)),
    widths: EXPORTED_WIDTHS,
  });
}

export type ImportResult =
  { errors: ImportError[]; total: number } | { errors: []; total: number; inserted: number; updated: number };

/**
 * Writes the parsed rows of a workbook, all or none: `errors` are the rows the parser refused; with the rows the plan
 * refuses (unknown parent, code and parent not matching) they are answered and nothing is written. Upsert by code; a
 * renamed region's descendants outside the file carry its new name.
 */
export async function importRows(
  tx: Db,
  by: { userId: string; deptId: string | null; now: Date },
  rows: ImportRow[],
  errors: ImportError[],
): Promise<ImportResult> {
  const needed = rows.flatMap((r) => [r.code, regionParent(r.code)]).filter((c) => c !== REGION_ROOT);
  const plan = planRows(rows, await liveByCodes(tx, needed));
  const all = [...errors, ...plan.errors].sort((a, b) => a.row - b.row);
  if (all.length) return { errors: all, total: rows.length + errors.length };
  const inserted = plan.planned.filter((r) => !r.existing).length;
  let written = 0;
  for (let i = 0; i < plan.planned.length; i += IMPORT_CHUNK) {
    const chunk = plan.planned.slice(i, i + IMPORT_CHUNK).map((r) =>
      Object.assign(r, {
        id: newId(),
        sort: r.sort ?? r.existing?.sort ?? 0,
        remark: r.remark === undefined ? (r.existing?.remark ?? null) : r.remark,
        createUser: by.userId,
        createDept: by.deptId,
        createTime: by.now,
        updateUser: by.userId,
        updateTime: by.now,
      }),
    );
    written += (await writeRegions(tx, chunk, true)).length;
  }
  for (const r of plan.planned) {
    if (r.existing && r.existing.name !== r.name) await renameBelow(tx, r.code, r.name);
  }
  return { errors: [], total: plan.planned.length, inserted, updated: written - inserted };
}
