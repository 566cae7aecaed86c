// The region export's workload through the xlsx writer (docs/server.md "Spreadsheets"; bench-results/2026-11-28-xlsx.md):
// the seeded tree (provinces to districts, 3,351 regions), the seeded tree with its towns (44,703, what the import
// loads), and 100,000 regions (the export's most: the towns and made-up villages below them), every exported column.
// Each writer and size runs in a fresh child process, which builds the rows, then writes the workbook in memory;
// figures: wall ms, CPU ms of the process (its threads included), bytes, RSS before and peak (VmHWM), and the rows
// read back with read-excel-file (what the import reads). `cd apps/server && npx tsx bench/xlsx.ts`.
// BENCH_XLSX_BASE=<a checkout's apps/server/src holding modules/region/xlsx.ts and modules/report/export.ts, e.g. a
// worktree at 2627c3c> adds the two writers this one replaced: the hand-written one-pass writer ("hand") and the
// report's exceljs worker without styles ("report-worker").
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { readSheet } from 'read-excel-file/node';
import { xlsxFile, type XlsxCell } from '../src/platform/xlsx.ts';
import { REGION_EXPORT_COLUMNS, REGION_EXPORT_WIDTHS } from '../src/modules/region/index.ts';
import { regionRows } from '../src/seed/regions.ts';
import { rssOf } from './lib.ts';

const COLUMNS: string[] = [...REGION_EXPORT_COLUMNS];
const WIDTHS = REGION_EXPORT_WIDTHS;

/** `n` regions as the export writes them: the real tree first, then villages below its towns. */
function rows(n: number): XlsxCell[][] {
  const real = regionRows(n <= 3351 ? 3 : 4).slice(0, n) as Record<string, unknown>[];
  const all: Record<string, unknown>[] = real.map((r) => ({ ...r, remark: null }));
  const towns = real.filter((r) => String(r.code).length === 9);
  for (let k = 1; all.length < n; k++)
    for (const t of towns) {
      if (all.length >= n) break;
      const code = `${String(t.code)}${String(k).padStart(3, '0')}`;
      const name = `${String(t.name)}第${k}村`;
      all.push({
        ...t,
        code,
        name,
        parentCode: t.code,
        level: 5,
        ancestors: `${String(t.ancestors)},${String(t.code)}`,
        villageCode: code,
        villageName: name,
      });
    }
  return all.map((r) => COLUMNS.map((k) => r[k] as XlsxCell));
}

type Writer = (header: string[], body: XlsxCell[][]) => Promise<Buffer>;

async function writer(name: string): Promise<Writer> {
  const base = process.env.BENCH_XLSX_BASE;
  if (name === 'exceljs') return (heads, body) => xlsxFile({ name: '行政区划', heads, rows: body, widths: WIDTHS });
  if (name === 'hand') {
    const m = (await import(`${base}/modules/region/xlsx.ts`)) as {
      writeXlsx: (s: { name: string; header: string[]; rows: XlsxCell[][]; widths: number[] }) => Promise<Buffer>;
    };
    return (header, body) => m.writeXlsx({ name: '行政区划', header, rows: body, widths: WIDTHS });
  }
  const m = (await import(`${base}/modules/report/export.ts`)) as {
    writeXlsx: (o: PassThrough, n: string, h: string[], b: Iterable<XlsxCell[][]>) => Promise<number>;
  };
  return async (header, body) => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    function* batches() {
      for (let i = 0; i < body.length; i += 10_000) yield body.slice(i, i + 10_000);
    }
    await m.writeXlsx(out, '行政区划', header, batches());
    return Buffer.concat(chunks);
  };
}

async function child(name: string, n: number) {
  const write = await writer(name);
  const body = rows(n);
  global.gc?.();
  const before = rssOf(process.pid).rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const file = await write(COLUMNS, body);
  const ms = Math.round(performance.now() - t0);
  const cpu = process.cpuUsage(cpu0);
  const peak = rssOf(process.pid).hwm;
  const back = await readSheet(file);
  const same = back.length === n + 1 && back[n][0] === body[n - 1][0] && back[1][2] === body[0][2];
  console.log(
    JSON.stringify({
      writer: name,
      rows: n,
      ms,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      kb: Math.round(file.length / 1024),
      rssBeforeMb: before,
      peakRssMb: peak,
      readBack: same,
    }),
  );
}

const [mode, a, b] = process.argv.slice(2);
if (mode === 'child') await child(a, Number(b));
else {
  const writers = process.env.BENCH_XLSX_BASE ? ['hand', 'report-worker', 'exceljs'] : ['exceljs'];
  const self = fileURLToPath(import.meta.url);
  for (const n of [3351, 44_703, 100_000])
    for (const w of writers) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', '--expose-gc', self, 'child', w, String(n)], {
        encoding: 'utf8',
      });
      process.stdout.write(out);
    }
}
