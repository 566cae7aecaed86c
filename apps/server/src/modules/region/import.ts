import { fill, type Msg } from '@atrium/contract';
import { region as regionDef, regionLevel, regionParent } from '@atrium/contract/resources/system/region';
import { readSheet } from 'read-excel-file/node';
import { badRequest } from '../../platform/errors.ts';
import { regionTexts as texts } from './messages.ts';
import { placement, type ParentRow, type Placement, type RegionRow } from './service.ts';

/**
 * The xlsx import of regions (docs/product.md "Regions"): the first row names the columns (field names or their
 * labels in either language, as the export writes them); code and name are needed, parentCode, sort and remark
 * are optional, the derived columns (level, ancestors, province … village) are ignored. Every row is checked
 * before anything is written.
 */

export const IMPORT_MAX_ROWS = 100_000;

/** The columns an import reads. */
const READ = ['code', 'parentCode', 'name', 'sort', 'remark'] as const;
type ReadField = (typeof READ)[number];

export type ImportRow = {
  /** The row's number in the sheet (the header is row 1). */
  row: number;
  code: string;
  name: string;
  /** Absent column: kept on update, 0 on insert. */
  sort?: number;
  /** Absent column: kept on update; an empty cell clears it. */
  remark?: string | null;
};
export type ImportError = { row: number; code: string; message: Msg };
export type PlannedRow = ImportRow & Placement & { existing?: RegionRow };

const normal = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** Header text → field: the field's name, or its label in Chinese or English. */
const HEADERS = new Map<string, ReadField>(
  READ.flatMap((f) => {
    const label = regionDef.fields[f].label;
    return [normal(f), normal(label.zh), normal(label.en)].map((h) => [h, f] as [string, ReadField]);
  }),
);

type CellValue = string | number | boolean | Date | null | undefined;

function text(v: CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return String(v);
  if (v instanceof Date) return v.toISOString();
  return String(v).trim();
}

/** Reads the first sheet; a file that is no xlsx workbook is a 400. */
export async function readRegionSheet(file: Buffer): Promise<CellValue[][]> {
  try {
    return (await readSheet(file)) as CellValue[][];
  } catch {
    throw badRequest(texts.notXlsx);
  }
}

/** The sheet's rows, each checked on its own (form, lengths, duplicates, the parent its code implies). */
export function parseRows(sheet: CellValue[][]): { rows: ImportRow[]; errors: ImportError[] } {
  const [header = [], ...body] = sheet;
  const columns = new Map<ReadField, number>();
  header.forEach((h, i) => {
    const f = HEADERS.get(normal(text(h)));
    if (f && !columns.has(f)) columns.set(f, i);
  });
  if (!columns.has('code') || !columns.has('name')) throw badRequest(texts.noHeader);
  if (body.length > IMPORT_MAX_ROWS) throw badRequest(fill(texts.tooManyRows, { max: IMPORT_MAX_ROWS }));

  const rows: ImportRow[] = [];
  const errors: ImportError[] = [];
  const seen = new Map<string, number>();
  const at = (cells: CellValue[], f: ReadField) => (columns.has(f) ? cells[columns.get(f)!] : undefined);
  body.forEach((cells, i) => {
    const row = i + 2;
    if (cells.every((c) => text(c) === '')) return;
    const code = text(at(cells, 'code'));
    const fail = (message: Msg) => errors.push({ row, code, message });
    const pattern = regionDef.fields.code.pattern;
    if (!code) return fail(regionDef.fields.code.required);
    if (!new RegExp(pattern.regex).test(code)) return fail(pattern.message);
    const first = seen.get(code);
    if (first) return fail(fill(texts.duplicate, { row: first }));
    seen.set(code, row);
    const parent = text(at(cells, 'parentCode'));
    if (parent && parent !== regionParent(code))
      return fail(fill(texts.parentMismatch, { parent: regionParent(code) }));
    const name = text(at(cells, 'name'));
    if (!name) return fail(texts.nameRequired);
    if (name.length > 100 || name.includes('\u0000')) return fail(texts.nameTooLong);
    const out: ImportRow = { row, code, name };
    if (columns.has('sort')) {
      const raw = text(at(cells, 'sort'));
      const n = raw === '' ? 0 : Number(raw);
      if (!Number.isInteger(n) || n < 0 || n > 999999) return fail(texts.badSort);
      out.sort = n;
    }
    if (columns.has('remark')) {
      const remark = text(at(cells, 'remark'));
      if (remark.length > 255 || remark.includes('\u0000')) return fail(texts.remarkTooLong);
      out.remark = remark || null;
    }
    rows.push(out);
  });
  return { rows, errors };
}

/**
 * Places each row below its parent — a row of the same file or a live region — parents first, so a whole level can
 * be imported with the level above it. `live`: the live regions the file names or needs as parents.
 */
export function planRows(
  rows: ImportRow[],
  live: Map<string, RegionRow>,
): { planned: PlannedRow[]; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const planned: PlannedRow[] = [];
  const placed = new Map<string, ParentRow>();
  const byLevel = [...rows].sort((a, b) => regionLevel(a.code) - regionLevel(b.code) || a.row - b.row);
  for (const r of byLevel) {
    const parentCode = regionParent(r.code);
    const parent = parentCode === '00' ? null : (placed.get(parentCode) ?? live.get(parentCode));
    if (parent === undefined) {
      errors.push({ row: r.row, code: r.code, message: texts.parentMissing });
      continue;
    }
    // Assigned, not spread: V8 copies these wide objects far more slowly by spreading (seconds for the towns).
    const row: PlannedRow = Object.assign(placement(parent, r.code, r.name), r, { existing: live.get(r.code) });
    placed.set(r.code, row);
    planned.push(row);
  }
  return { planned, errors: errors.sort((a, b) => a.row - b.row) };
}
