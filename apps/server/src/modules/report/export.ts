import type { Writable } from 'node:stream';
import { drained } from '../../platform/xlsx.ts';
import type { Cell } from './service.ts';

/**
 * The export's csv writer (docs/reports.md "Export"; the xlsx one is the app's, platform/xlsx.ts): rows arrive in
 * batches and leave as they come, so memory holds one batch whatever the report's size. It waits for the reply stream
 * to drain (a slow client slows the reads, it does not fill the server's memory) and stops when `signal` is aborted.
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
