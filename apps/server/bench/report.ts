// The report export at 1,000,000 rows (issue 27 §4; docs/reports.md "Export"): a throwaway PostgreSQL database migrated
// and seeded by the real start-up, then BENCH_REPORT_ROWS (1,000,000) rows of the daily online rollup written with
// generate_series (the platform tenant; a year of days × real districts × device types), a saved `online_day` report
// over that year with every column (region names included). A fresh server process (a child) exports it as csv, then
// another as xlsx; each download is read to the end by this process. Figures: time, rows/s, bytes, and the server's
// peak RSS (VmHWM of the process, which did nothing else) and its RSS before. Aims: peak RSS < 300 MB, csv ≥ 200,000
// rows/s. Alone: `cd apps/server && npx tsx bench/report.ts`, or `BENCH_ONLY=report npm run bench` at the root.
// Knobs: BENCH_PG_URL, BENCH_REPORT_ROWS, BENCH_REPORT_PORT, BENCH_REPORT_KEEP_DB=1.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { reportApi } from '@atrium/contract';
import { report_list } from '@atrium/contract/resources/report/report_list';
import {
  BASIC,
  captchaLogin,
  type Log,
  prebuilt,
  printFigure,
  rssOf,
  runIfMain,
  sleep,
  stop,
  throwawayDb,
  waitFor,
} from './lib.ts';

const TENANT = '000000';

type Run = { rows: number; ms: number; rowsPerSecond: number; mb: number; rssBeforeMb: number; peakRssMb: number };
export type ReportResult = {
  rows: number;
  fillMs: number;
  csv: Run;
  xlsx: Run;
  aims: { peakRssUnder300: boolean; csvAtLeast200kRowsPerSecond: boolean };
};

/** Day × district × type rows of the rollup, at most `rows` of them, from the seeded districts. */
async function fill(c: pg.Client, rows: number, log: Log) {
  const t0 = performance.now();
  const districts = Number(
    (await c.query(`select count(*)::int as n from region where length(code) = 6 and is_deleted = 0`)).rows[0].n,
  );
  const types = Math.max(1, Math.ceil(rows / (366 * districts)));
  await c.query(
    `insert into stat_device_daily (tenant_id, day, district, device_type, total, online)
     select $1, d::date, r.code, (130 + t)::text, 100 + (length(r.code) * t) % 50, 40 + (hashtext(r.code) & 31)
     from generate_series(date '2025-01-01', date '2026-01-01', interval '1 day') d
     cross join (select code from region where length(code) = 6 and is_deleted = 0) r
     cross join generate_series(1, $2::int) t
     order by 1, 2, 3, 4
     limit $3`,
    [TENANT, types, rows],
  );
  await c.query('vacuum analyze stat_device_daily');
  const fillMs = Math.round(performance.now() - t0);
  log('report: rollup rows / districts / types / fill ms', `${rows} / ${districts} / ${types} / ${fillMs}`);
  return fillMs;
}

/** One export read to the end, the server's RSS sampled meanwhile. */
async function exportOnce(
  base: string,
  headers: Record<string, string>,
  id: string,
  format: 'csv' | 'xlsx',
  pid: number,
) {
  await sleep(500);
  const before = rssOf(pid).rss ?? 0;
  const t0 = performance.now();
  const res = await fetch(`${base}${reportApi.exportFile.path}?id=${id}&format=${format}`, { headers });
  if (res.status !== 200 || !res.body) throw new Error(`export ${format}: ${res.status} ${await res.text()}`);
  const rows = Number(res.headers.get('x-report-rows'));
  let bytes = 0;
  const reader = res.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length;
  const ms = Math.round(performance.now() - t0);
  return {
    rows,
    ms,
    rowsPerSecond: Math.round(rows / (ms / 1000)),
    mb: Math.round((bytes / 2 ** 20) * 10) / 10,
    rssBeforeMb: before,
    peakRssMb: rssOf(pid).hwm ?? 0,
  };
}

export async function benchReport(serverDir: string, log: Log = printFigure): Promise<ReportResult> {
  const rows = Number(process.env.BENCH_REPORT_ROWS ?? 1_000_000);
  const db = await throwawayDb('report', 'BENCH_REPORT_PORT', 'BENCH_REPORT_KEEP_DB');
  const built = await prebuilt('test/captcha-file-server.ts', serverDir);
  const captchaFile = path.join(db.dir, 'captchas.txt');
  const env = { ...db.env, ATRIUM_E2E_CAPTCHA_FILE: captchaFile };
  let server: ChildProcess | undefined;
  const c = new pg.Client({ connectionString: db.dbUrl });
  const start = async () => {
    // BENCH_REPORT_NODE_FLAGS: flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (bench/cpu-summary.mjs).
    const flags = process.env.BENCH_REPORT_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...flags, ...built.args], {
      cwd: serverDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitFor(`${db.base}/api/blade-system/tenant/info?domain=x`, 120_000);
    return child;
  };
  try {
    await stop(await db.start('src/main.ts', serverDir));
    await c.connect();
    const fillMs = await fill(c, rows, log);
    const out: Partial<Record<'csv' | 'xlsx', Run>> = {};
    let id = '';
    for (const format of ['csv', 'xlsx'] as const) {
      server = await start();
      const headers = { authorization: BASIC, 'blade-auth': `bearer ${await captchaLogin(db.base, captchaFile)}` };
      if (!id) {
        const res = await fetch(`${db.base}${report_list.base}/submit`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'bench', dataset: 'online_day', dateFrom: '2025-01-01', dateTo: '2026-01-01' }),
        });
        const body = (await res.json()) as { data?: { id: string }; msg?: string };
        if (!body.data) throw new Error(`report submit: ${res.status} ${body.msg}`);
        id = body.data.id;
      }
      const r = await exportOnce(db.base, headers, id, format, server.pid!);
      out[format] = r;
      log(
        `report: ${format} rows / ms / rows/s / MB / RSS before → peak MB`,
        `${r.rows} / ${r.ms} / ${r.rowsPerSecond} / ${r.mb} / ${r.rssBeforeMb} → ${r.peakRssMb}`,
      );
      await stop(server);
      server = undefined;
    }
    const csv = out.csv!;
    const xlsx = out.xlsx!;
    const aims = {
      peakRssUnder300: csv.peakRssMb < 300 && xlsx.peakRssMb < 300,
      csvAtLeast200kRowsPerSecond: csv.rowsPerSecond >= 200_000,
    };
    log('report: aims (peak RSS < 300 MB, csv ≥ 200,000 rows/s)', aims);
    return { rows, fillMs, csv, xlsx, aims };
  } finally {
    if (server) await stop(server);
    await sleep(100);
    await c.end().catch(() => {});
    built.remove();
    await db.close();
  }
}

runIfMain(import.meta.url, benchReport);
