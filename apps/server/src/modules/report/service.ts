import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { fill, type Msg } from '@atrium/contract';
import {
  REPORT_COLUMNS,
  REPORT_DATASETS,
  REPORT_MAX_DAYS,
  REPORT_RUN_MAX_ROWS,
  type ReportColumn,
  type ReportDataset,
} from '@atrium/contract/resources/report/report_list';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { badRequest, notFound, type Lang } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { readTenant } from '../../platform/tenant-db.ts';
import type { AuthContext } from '../../platform/tokens.ts';
import { region } from '../region/index.ts';
import { statScopeOf } from '../statistics/index.ts';
import { DATASETS, type DatasetInput, type DatasetQuery } from './datasets.ts';
import { reportTexts as texts } from './messages.ts';
import { reportTable } from './table.ts';

/**
 * Running a saved report (docs/reports.md): the definition's checks (shared by its save and its run), a page of
 * rows for the viewer, and the export's batches read by keyset — each batch its own short read transaction, so an
 * export of 1,000,000 rows holds no transaction open and a cancelled one stops at the next batch.
 */

export type ReportRow = typeof reportTable.$inferSelect;
export type Cell = string | number | null;
/** What a definition holds that a run reads. */
export type Definition = Pick<
  ReportRow,
  'name' | 'dataset' | 'regionCode' | 'dateFrom' | 'dateTo' | 'deviceType' | 'columns' | 'chart'
>;

const refuse = (text: Msg, field: string) => badRequest(text, [{ field, message: text }]);
const dayMs = 86_400_000;

/** The definition's columns in order: those it names, else all of its dataset's. */
export function columnsOf(d: Pick<Definition, 'dataset' | 'columns'>): ReportColumn[] {
  const all = REPORT_DATASETS[d.dataset as ReportDataset].columns as readonly ReportColumn[];
  const named = (d.columns ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean) as ReportColumn[];
  return named.length ? named : [...all];
}

/**
 * A definition's rules beyond its fields' kinds: its columns belong to its dataset; a day-based dataset names a
 * range of at most REPORT_MAX_DAYS days (else a run would read everything ever kept), the end not before the start.
 */
export function checkDefinition(d: Pick<Definition, 'dataset' | 'columns' | 'dateFrom' | 'dateTo'>): void {
  const ds = REPORT_DATASETS[d.dataset as ReportDataset];
  if (!ds) throw refuse(texts.badColumns, 'dataset');
  const own = ds.columns as readonly string[];
  if (columnsOf(d).some((c) => !own.includes(c)))
    throw refuse(fill(texts.badColumns, { list: own.join(', ') }), 'columns');
  const { dateFrom: from, dateTo: to } = d;
  if (ds.days && (!from || !to))
    throw refuse(fill(texts.needRange, { days: REPORT_MAX_DAYS }), from ? 'dateTo' : 'dateFrom');
  if (from && to) {
    const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs;
    if (span < 0) throw refuse(texts.rangeOrder, 'dateTo');
    if (ds.days && span + 1 > REPORT_MAX_DAYS)
      throw refuse(fill(texts.rangeTooLong, { days: REPORT_MAX_DAYS }), 'dateTo');
  }
}

/** The live definition `id` of the caller's tenant, else a 404 (another tenant's id included). */
export async function definitionOf(s: Services, auth: AuthContext, id: string): Promise<ReportRow> {
  const [row] = await readTenant(s.db, auth.tenantId, (tx) =>
    tx
      .select()
      .from(reportTable)
      .where(and(eq(reportTable.id, id), eq(reportTable.tenantId, auth.tenantId), eq(reportTable.isDeleted, 0))),
  );
  if (!row) throw notFound();
  return row;
}

/**
 * What the dataset's query reads with: the caller's data scope on the source resource's rows, as that resource's list
 * applies it (read before any transaction: it goes through the cache).
 */
async function inputOf(s: Services, auth: AuthContext, d: Definition): Promise<DatasetInput> {
  const ds = DATASETS[d.dataset as ReportDataset];
  let scope: SQL | undefined;
  if (ds.scopeCode) {
    const reader = s.registry.scopeReaders?.get(ds.scopeCode);
    if (!reader) throw new Error(`report: no data scope reader for ${ds.scopeCode}`);
    scope = await reader(auth);
  }
  const days = REPORT_DATASETS[d.dataset as ReportDataset].days;
  return {
    tenantId: auth.tenantId,
    scope,
    statScope: d.dataset === 'online_day' ? await statScopeOf(s, auth, 'cameradevice') : { kind: 'none' },
    region: d.regionCode || null,
    dateFrom: d.dateFrom,
    dateTo: d.dateTo,
    deviceType: REPORT_DATASETS[d.dataset as ReportDataset].deviceType ? d.deviceType || null : null,
    timeZone: s.config.timeZone,
    ...(days ? {} : { dateFrom: null, dateTo: null }),
  };
}

const keyList = (q: DatasetQuery) =>
  sql.join(
    q.keys.map((k) => k.expr),
    sql`, `,
  );
const groupOf = (q: DatasetQuery) => (q.groupBy ? sql` group by ${q.groupBy}` : sql``);

/** Region names by code for the codes of some rows (one read; the global region table). */
async function regionNames(tx: Db, codes: string[], known: Map<string, string>): Promise<void> {
  const missing = [...new Set(codes)].filter((c) => c && !known.has(c));
  if (!missing.length) return;
  const found = await tx
    .select({ code: region.code, name: region.name })
    .from(region)
    .where(and(inArray(region.code, missing), eq(region.isDeleted, 0)));
  for (const c of missing) known.set(c, '');
  for (const r of found) known.set(r.code, r.name);
}

/** Raw rows → arrays of values in the columns' order, region names filled from `names`. */
function present(
  d: Definition,
  columns: ReportColumn[],
  rows: Record<string, unknown>[],
  names: Map<string, string>,
  lang: Lang,
): Cell[][] {
  const ds = DATASETS[d.dataset as ReportDataset];
  return rows.map((raw) => {
    const values = ds.present(raw, lang);
    return columns.map((c) => {
      if (c === 'regionName') {
        const code = String(raw.regionCode ?? '');
        return code ? names.get(code) || code : texts.noRegion[lang];
      }
      return values[c] ?? null;
    });
  });
}

export type RunPage = {
  columns: { key: string; label: string; kind: 'text' | 'number' }[];
  rows: Cell[][];
  total: number;
};

export const columnHeads = (columns: ReportColumn[], lang: Lang) =>
  columns.map((key) => ({ key, label: REPORT_COLUMNS[key].label[lang], kind: REPORT_COLUMNS[key].kind }));

/** A page of the definition's rows (the viewer), with the number of rows the whole report has. */
export async function runPage(
  s: Services,
  auth: AuthContext,
  d: Definition,
  page: { current: number; size: number },
  lang: Lang,
): Promise<RunPage> {
  checkDefinition(d);
  if (page.current * page.size > REPORT_RUN_MAX_ROWS)
    throw refuse(fill(texts.tooManyRows, { max: REPORT_RUN_MAX_ROWS }), 'current');
  const columns = columnsOf(d);
  const q = DATASETS[d.dataset as ReportDataset].query(await inputOf(s, auth, d));
  const names = new Map<string, string>();
  const { rows, total } = await readTenant(s.db, auth.tenantId, async (tx) => {
    const rows = await rowsOf<Record<string, unknown>>(
      tx,
      sql`select ${q.select} from ${q.from} where ${q.where}${groupOf(q)} order by ${keyList(q)}
        limit ${page.size} offset ${(page.current - 1) * page.size}`,
    );
    const [{ n }] = await rowsOf<{ n: number }>(
      tx,
      sql`select count(*)::int as n from (select 1 from ${q.from} where ${q.where}${groupOf(q)}) c`,
    );
    if (columns.includes('regionName'))
      await regionNames(
        tx,
        rows.map((r) => String(r.regionCode ?? '')),
        names,
      );
    return { rows, total: n };
  });
  return { columns: columnHeads(columns, lang), rows: present(d, columns, rows, names, lang), total };
}

/** How many rows the whole report has (the export's progress header). */
export async function countRows(s: Services, auth: AuthContext, d: Definition): Promise<number> {
  checkDefinition(d);
  const q = DATASETS[d.dataset as ReportDataset].query(await inputOf(s, auth, d));
  const [{ n }] = await readTenant(s.db, auth.tenantId, (tx) =>
    rowsOf<{ n: number }>(
      tx,
      sql`select count(*)::int as n from (select 1 from ${q.from} where ${q.where}${groupOf(q)}) c`,
    ),
  );
  return n;
}

/**
 * Every row of the report, in batches of `batch` rows in key order: each batch one read transaction continuing after
 * the last row's keys. Stops before the next batch once `signal` is aborted (the client went away).
 */
export async function* exportBatches(
  s: Services,
  auth: AuthContext,
  d: Definition,
  lang: Lang,
  opts: { signal?: AbortSignal; batch?: number } = {},
): AsyncGenerator<Cell[][]> {
  checkDefinition(d);
  const batch = opts.batch ?? 10_000;
  const columns = columnsOf(d);
  const q = DATASETS[d.dataset as ReportDataset].query(await inputOf(s, auth, d));
  const keyTexts = q.keys.flatMap((k, i) => (k.as ? [] : [sql`, (${k.expr})::text as ${sql.identifier(`_k${i}`)}`]));
  const names = new Map<string, string>();
  const read = (from: string[] | null) => {
    const past: SQL = from
      ? sql` and (${keyList(q)}) > (${sql.join(
          q.keys.map((k, i) => sql`${from[i]}::${sql.raw(k.cast)}`),
          sql`, `,
        )})`
      : sql``;
    return readTenant(s.db, auth.tenantId, async (tx) => {
      const rows = await rowsOf<Record<string, unknown>>(
        tx,
        sql`select ${q.select}${sql.join(keyTexts)} from ${q.from} where ${q.where}${past}${groupOf(q)}
          order by ${keyList(q)} limit ${batch}`,
      );
      // A bounded cache: a report over many regions keeps the names of the latest ones.
      if (names.size > 50_000) names.clear();
      if (columns.includes('regionName'))
        await regionNames(
          tx,
          rows.map((r) => String(r.regionCode ?? '')),
          names,
        );
      return rows;
    });
  };
  // The next batch is read while the caller writes this one (its keys are known once this one is read): the
  // database's time and the writing overlap (docs/reports.md "Export").
  let next: Promise<Record<string, unknown>[]> | null = read(null);
  try {
    while (next && !opts.signal?.aborted) {
      const rows: Record<string, unknown>[] = await next;
      next = null;
      if (!rows.length) return;
      if (rows.length === batch) {
        const last = rows[rows.length - 1];
        next = read(q.keys.map((k, i) => String(last[k.as ?? `_k${i}`])));
      }
      yield present(d, columns, rows, names, lang);
    }
  } finally {
    // A read left running when the caller stops (a cancel) ends in its own transaction; its outcome is not wanted.
    next?.catch(() => undefined);
  }
}
