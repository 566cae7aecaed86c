import type { AxiosProgressEvent } from 'axios';
import { reportApi, type AnswerOf } from '@atrium/contract';
import { call, request } from '../../api/call';
import { fileNameOf } from '../../api/download';

/** The report calls beyond the CRUD ones (docs/reports.md): a page of rows, and the streamed export. */

export type ReportRun = AnswerOf<typeof reportApi.run>;

export const runReport = (id: string, current: number, size: number) =>
  call(reportApi.run, { query: { id, current, size } });

/** Where an export stands: bytes received, and the rows the server said it sends (its `x-report-rows` header). */
export type ExportProgress = { loaded: number; rows: number | null };

/**
 * Downloads the whole report as a file (csv or xlsx) and saves it under the server's name. `signal` cancels: the
 * request is aborted, the server sees the connection close and reads no further batch.
 */
export async function exportReport(
  id: string,
  format: 'csv' | 'xlsx',
  signal: AbortSignal,
  onProgress: (p: ExportProgress) => void,
): Promise<{ name: string; blob: Blob; rows: number | null }> {
  let rows: number | null = null;
  const res = await request<typeof reportApi.exportFile, Blob>(
    reportApi.exportFile,
    { query: { id, format } },
    {
      responseType: 'blob',
      timeout: 0,
      signal,
      meta: { whitelist: [400, 403, 404] },
      onDownloadProgress: (e: AxiosProgressEvent) => {
        // The XHR's header is there from the first progress event on (the count is sent before any row).
        const xhr = (e.event as { target?: { getResponseHeader?: (h: string) => string | null } } | undefined)?.target;
        const header = xhr?.getResponseHeader?.('x-report-rows');
        if (header) rows = Number(header);
        onProgress({ loaded: e.loaded, rows });
      },
    },
  );
  const header = res.headers['x-report-rows'];
  if (header !== undefined) rows = Number(header);
  return { name: fileNameOf(res.headers, `report.${format}`), blob: res.data, rows };
}
