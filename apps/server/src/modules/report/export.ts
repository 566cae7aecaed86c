import { once, type EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
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

type Entry = EventEmitter & { writableLength?: number; _writableState?: { length: number }; destroyed?: boolean };

/** Bytes of sheet XML the zip may hold not yet compressed before the next batch waits for it. */
const ZIP_BACKLOG = 4 << 20;

/**
 * exceljs writes a committed row's XML to the zip entry without heeding its backpressure: when compressing is slower
 * than reading (a busy machine), the XML would pile up in the entry's buffer. The reads wait for it to drain instead.
 */
async function zipCaughtUp(sheet: ExcelJS.Worksheet, signal?: AbortSignal) {
  // exceljs's sheet writer keeps its stream (a StreamBuf piped into archiver's entry) untyped: its first pipe is the
  // entry, a PassThrough of the readable-stream package (its buffered length in `_writableState`).
  const entry = (sheet as unknown as { stream?: { pipes?: Entry[] } }).stream?.pipes?.[0];
  const backlog = () => entry?.writableLength ?? entry?._writableState?.length ?? 0;
  while (entry && backlog() > ZIP_BACKLOG && !entry.destroyed && !signal?.aborted)
    await once(entry, 'drain', { signal });
}

/**
 * One sheet through exceljs's streaming `WorkbookWriter`: each row committed as it is added (written to the zip
 * stream, not kept), no shared-string table and no styles, so the workbook's size does not grow the server's memory.
 */
export async function writeXlsx(
  out: Writable,
  sheetName: string,
  heads: string[],
  batches: AsyncIterable<Cell[][]>,
  signal?: AbortSignal,
): Promise<number> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName);
  sheet.addRow(heads).commit();
  let rows = 0;
  for await (const batch of batches) {
    if (signal?.aborted || out.destroyed) break;
    for (const r of batch) sheet.addRow(r).commit();
    rows += batch.length;
    await drained(out, signal);
    await zipCaughtUp(sheet, signal);
  }
  if (signal?.aborted || out.destroyed) return rows;
  sheet.commit();
  await book.commit();
  return rows;
}
