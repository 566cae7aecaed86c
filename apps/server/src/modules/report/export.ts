import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Cell } from './service.ts';

/**
 * The export's two writers (docs/reports.md "Export"): rows arrive in batches and leave as they come, so memory holds
 * one batch whatever the report's size. Both wait for the reply stream to drain (a slow client slows the reads, it
 * does not fill the server's memory) and stop when `signal` is aborted.
 */

/** A csv cell: quoted when it holds a separator, quote or line break; a text that a spreadsheet would read as a formula is prefixed by `'`. */
const PLAIN = /^[^=+\-@\t",\r\n][^",\r\n]*$/;
function csvCell(v: Cell): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  // Most cells need nothing: one test instead of three (bench/report.ts).
  if (v === '' || PLAIN.test(v)) return v;
  let s = v.replace(/[\r\n]+/g, ' ');
  if (/^[=+\-@\t]/.test(s)) s = `'${s}`;
  return /[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function drained(out: Writable, signal?: AbortSignal) {
  if (out.writableNeedDrain && !out.destroyed) await once(out, 'drain', { signal });
}

/** UTF-8 with a byte-order mark (spreadsheet programs then read Chinese right), CRLF line ends (RFC 4180). */
export async function writeCsv(
  out: Writable,
  heads: string[],
  batches: AsyncIterable<Cell[][]>,
  signal?: AbortSignal,
): Promise<number> {
  let rows = 0;
  out.write(`\ufeff${heads.map(csvCell).join(',')}\r\n`);
  for await (const batch of batches) {
    if (signal?.aborted || out.destroyed) break;
    let chunk = '';
    for (const r of batch) chunk += `${r.map(csvCell).join(',')}\r\n`;
    rows += batch.length;
    out.write(chunk);
    await drained(out, signal);
  }
  return rows;
}

/**
 * The xlsx worker's heap (docs/reports.md "Export"): exceljs makes a model per row and cell, garbage that a heap
 * without a cap promotes and keeps until the server's heap grows (+150 MB at 1,000,000 rows, bench/report.ts); in a
 * capped heap it is collected as it goes.
 */
const XLSX_HEAP = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 };

/**
 * One sheet through exceljs's streaming `WorkbookWriter` (no shared-string table, no styles: each row written as it
 * is added), run in a worker thread of its own (`xlsx.worker.mjs`): a batch is posted, the workbook's bytes come back
 * and are written to `out`, the next batch waits for the worker's acknowledgement and for `out` to drain. A cancel
 * ends the worker.
 */
export async function writeXlsx(
  out: Writable,
  sheetName: string,
  heads: string[],
  batches: AsyncIterable<Cell[][]>,
  signal?: AbortSignal,
): Promise<number> {
  const worker = new Worker(new URL('./xlsx.worker.mjs', import.meta.url), {
    workerData: { sheetName, heads },
    resourceLimits: XLSX_HEAP,
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
  const ask = (msg: { rows: Cell[][] } | { end: true }) =>
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
