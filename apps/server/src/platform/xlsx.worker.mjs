// The xlsx writer's thread (docs/server.md "Spreadsheets"): exceljs's streaming WorkbookWriter runs here, in a heap of
// its own capped by `resourceLimits` (platform/xlsx.ts), so the garbage of its row models is collected within that cap
// instead of growing the server's heap, and the compressing leaves the HTTP event loop. Plain JavaScript so that node
// loads it as it is, under tsx, vitest and the production build alike (scripts/build-server.mjs copies it beside the
// bundle's chunks).
//
// workerData: { sheetName, heads, widths? }. Messages in: { rows } (a batch, answered { ack: true } once its rows are
// written and the zip has caught up), { end: true } (answered { done: true } after the workbook's last bytes). Out,
// between: { chunk } — the workbook's bytes, in order (an ArrayBuffer, transferred).
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';

const out = new Writable({
  write(chunk, _encoding, callback) {
    const bytes = new Uint8Array(chunk.byteLength);
    bytes.set(chunk);
    parentPort.postMessage({ chunk: bytes.buffer }, [bytes.buffer]);
    callback();
  },
});
// No styles: with them exceljs resolves a style for every cell, +70 % CPU at 100,000 regions (5.4–5.8 s against
// 3.1–3.4 s, bench/xlsx.ts) for nothing but a bold header; the frozen header and the widths need none.
const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
// The header stays in view while scrolling.
const sheet = book.addWorksheet(workerData.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
if (workerData.widths) sheet.columns = workerData.widths.map((width) => ({ width }));
sheet.addRow(workerData.heads).commit();

/** Bytes of sheet XML the zip may hold not yet compressed before a batch is acknowledged. */
const ZIP_BACKLOG = 4 << 20;

// exceljs writes a committed row's XML into the zip entry without heeding its backpressure: the batch is acknowledged
// once the entry's backlog is under ZIP_BACKLOG. The entry (a readable-stream PassThrough) is the sheet stream's
// first pipe; exceljs keeps both untyped.
async function zipCaughtUp() {
  const entry = sheet.stream?.pipes?.[0];
  const backlog = () => entry?.writableLength ?? entry?._writableState?.length ?? 0;
  while (entry && backlog() > ZIP_BACKLOG && !entry.destroyed) await once(entry, 'drain');
}

let turn = Promise.resolve();
parentPort.on('message', (msg) => {
  turn = turn.then(async () => {
    if (msg.rows) {
      for (const r of msg.rows) sheet.addRow(r).commit();
      await zipCaughtUp();
      parentPort.postMessage({ ack: true });
    } else if (msg.end) {
      sheet.commit();
      await book.commit();
      parentPort.postMessage({ done: true });
    }
  });
  turn.catch((err) => parentPort.postMessage({ error: String(err?.stack ?? err) }));
});
