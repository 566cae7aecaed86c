import type { AxiosProgressEvent } from 'axios';
import { system, type AnswerOf } from '@atrium/contract';
import { notify } from '../app/notify';
import { call, request } from './call';
import { get } from './http';
import { datasource } from '@atrium/contract/resources/system/datasource';
import { fileNameOf, refusalOf, saveBlob } from './download';

/** The per-tenant export and import (docs/tenants.md "Export format"), platform administrator only. */

export type TransferSummary = AnswerOf<typeof system.tenantImport>;

/** Downloads one tenant's export (gzip'd NDJSON) and hands it to the browser; `onBytes`: the bytes received so far. */
export async function downloadTenant(tenantId: string, onBytes?: (loaded: number) => void) {
  const res = await request<typeof system.tenantExport, Blob>(
    system.tenantExport,
    { query: { tenantId } },
    {
      responseType: 'blob',
      timeout: 0,
      meta: { whitelist: [400, 403, 404] },
      onDownloadProgress: (e: AxiosProgressEvent) => onBytes?.(e.loaded),
    },
  ).catch(async (err: unknown) => {
    const text = await refusalOf(err);
    if (text) notify().error(text);
    throw err;
  });
  const stamp = new Date().toISOString().slice(0, 10);
  saveBlob(fileNameOf(res.headers, `tenant-${tenantId}-${stamp}.ndjson.gz`), res.data);
}

/**
 * Uploads an export into its tenant; `replace` overwrites the rows the tenant holds; `onPercent`: how much of the
 * file is sent (the server writes the rows after the last byte). Answers the server's message.
 */
export async function uploadTenant(
  tenantId: string,
  file: File,
  replace: boolean,
  onPercent?: (percent: number) => void,
): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const res = await request(
    system.tenantImport,
    { query: { tenantId, ...(replace ? { replace: 'true' as const } : {}) }, body: form },
    {
      timeout: 0,
      onUploadProgress: (e: AxiosProgressEvent) => onPercent?.(e.total ? Math.round((e.loaded / e.total) * 100) : 0),
    },
  );
  return res.data.msg;
}

/** The data sources a tenant may be moved to (数据源管理), for the binding's picker. */
export async function datasourceOptions(): Promise<{ value: string; label: string }[]> {
  const page = await get<{ records: { id: string; name: string; url: string }[] }>(`${datasource.base}/list`, {
    current: 1,
    size: 200,
  });
  return page.records.map((r) => ({ value: r.id, label: `${r.name} (${r.url})` }));
}

/** Moves a tenant to a data source, or back to the main database (`datasourceId` empty). */
export async function bindTenant(tenantId: string, datasourceId: string) {
  return call(system.tenantDatasource, { body: { tenantId, datasourceId } }, { timeout: 0 });
}
