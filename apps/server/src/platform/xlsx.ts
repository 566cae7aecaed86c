import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';

/**
 * The app's one xlsx writer (docs/server.md "Spreadsheets"): the report export and the region export both write
 * through it. One sheet through exceljs's streaming `WorkbookWriter` (no shared-string table, no styles; a frozen
 * header row; column widths), run in a worker thread of its own (`xlsx.worker.mjs`): a batch is posted, the workbook's
 * bytes come back and are written to `out`, the next batch waits for the worker's acknowledgement and for `out` to
 * drain — memory holds one batch whatever the sheet's size. A cancel (`signal`) ends the worker.
 * Reading workbooks made by spreadsheet programs is left to read-excel-file (modules/region/import.ts).
 */

export type XlsxCell = string | number | null | undefined;

export type XlsxSheet = {
  /** The sheet's tab (exceljs refuses more than 31 characters and `\ / ? * [ ] :`; they are replaced). */
  name: string;
  /** The header row's texts. */
  heads: string[];
  /** Column widths in characters; exceljs's default when absent. */
  widths?: number[];
};

/**
 * The worker's heap: exceljs makes a model per row and cell, garbage that a heap without a cap promotes and keeps
 * until the server's heap grows (+150 MB at 1,000,000 rows, bench/report.ts); in a capped heap it is collected as it
 * goes.
 */
const XLSX_HEAP = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 };

export async function drained(out: Writable, signal?: AbortSignal): Promise<void> {
  if (out.writableNeedDrain && !out.destroyed) await once(out, 'drain', { signal });
}

const sheetName = (name: string) => name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1';

/** Writes the workbook to `out` (not ended here) batch by batch; answers the rows written (not the header). */
export async function writeXlsx(
  out: Writable,
  sheet: XlsxSheet,
  batches: AsyncIterable<XlsxCell[][]> | Iterable<XlsxCell[][]>,
  signal?: AbortSignal,
): Promise<number> {
  const worker = new Worker(new URL('./xlsx.worker.mjs', import.meta.url), {
    workerData: { sheetName: sheetName(sheet.name), heads: sheet.heads, widths: sheet.widths },
    resourceLimits: XLSX_HEAP,
    // Not the server's flags: under tsx (development, tests) the thread would load tsx too, +250 ms at each start
    // (bench/xlsx.ts); the worker is plain JavaScript.
    execArgv: [],
  });
  let waiting: { resolve: () => void; reject: (err: Error) => void } | null = null;
  let failed: Error | null = null;
  const fail = (err: Error) => {
    failed ??= err;
    waiting?.reject(failed);
  };
  worker.on('message', (msg: { chunk?: ArrayBuffer; ack?: true; done?: true; error?: string }) => {
    if (msg.chunk) out.write(Buffer.from(msg.chunk));
    else if (msg.ack || msg.done) waiting?.resolve();
    else if (msg.error) fail(new Error(`xlsx worker: ${msg.error}`));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`xlsx worker exited (${code})`)));
  /** Posts a message and waits for its answer (an acknowledgement, or the end). */
  const ask = (msg: { rows: XlsxCell[][] } | { end: true }) =>
    new Promise<void>((resolve, reject) => {
      if (failed) return reject(failed);
      waiting = { resolve, reject };
      worker.postMessage(msg);
    });
  let rows = 0;
  try {
    for await (const batch of batches) {
      if (signal?.aborted || out.destroyed) break;
      await ask({ rows: batch });
      rows += batch.length;
      await drained(out, signal);
    }
    if (!signal?.aborted && !out.destroyed) await ask({ end: true });
    return rows;
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

/** Rows per message to the worker when a whole sheet is in hand. */
const BATCH = 10_000;

/** A whole workbook in memory (a sheet already in hand, at most the region export's 100,000 rows). */
export async function xlsxFile(sheet: XlsxSheet & { rows: XlsxCell[][] }): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  function* batches() {
    for (let i = 0; i < sheet.rows.length; i += BATCH) yield sheet.rows.slice(i, i + BATCH);
  }
  await writeXlsx(out, sheet, batches());
  return Buffer.concat(chunks);
}
