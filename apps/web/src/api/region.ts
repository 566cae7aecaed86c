import type { AxiosProgressEvent } from 'axios';
import { regionApi, type AnswerOf } from '@atrium/contract';
import { region, REGION_NAMES_MAX } from '@atrium/contract/resources/system/region';
import { notify } from '../app/notify';
import { call, request } from './call';
import { fileNameOf, refusalOf, saveBlob } from './download';
import { get } from './http';

/** The region calls beyond the CRUD ones (docs/system-api.md, regions). */

const BASE = region.base;

/** A node of `lazy-tree`: id, key and value are the code; parentId the parent's code ('00' for a province). */
export type RegionNode = {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  level: number;
  hasChildren: boolean;
};

/** One level of the tree, cached per parent for the session: pickers on many screens ask for the same levels. */
const levels = new Map<string, Promise<RegionNode[]>>();

export function regionChildren(parentCode: string): Promise<RegionNode[]> {
  let level = levels.get(parentCode);
  if (!level) {
    level = get<RegionNode[]>(`${BASE}/lazy-tree`, { parentCode });
    levels.set(parentCode, level);
    // A failed call is asked again next time.
    level.catch(() => levels.delete(parentCode));
  }
  return level;
}

/** After a change to the regions: the cached levels are read again. */
export function forgetRegionLevels(parentCode?: string) {
  if (parentCode === undefined) levels.clear();
  else levels.delete(parentCode);
}

/** A region's name, as `names?codes=` answers it. */
export type RegionName = AnswerOf<typeof regionApi.names>[number];

type Waiter = { resolve: (name: string | null) => void; reject: (err: unknown) => void };
/** Codes asked since the last call went out, with whoever waits for each. */
let asked = new Map<string, Waiter[]>();
let flush: ReturnType<typeof setTimeout> | null = null;

/**
 * The name of a region by code (null: no live region has it). Every code asked within one task — the region cells of
 * a page of records rendering together — goes out as one `names?codes=` call (split at REGION_NAMES_MAX codes), so a
 * page costs one request, not one per row (docs/web.md "Field types"). The cells cache the answers per code.
 */
export function regionName(code: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    asked.set(code, [...(asked.get(code) ?? []), { resolve, reject }]);
    flush ??= setTimeout(sendNames, 0);
  });
}

function sendNames() {
  const batch = asked;
  asked = new Map();
  flush = null;
  const codes = [...batch.keys()];
  for (let i = 0; i < codes.length; i += REGION_NAMES_MAX) {
    const chunk = codes.slice(i, i + REGION_NAMES_MAX);
    // A failure leaves the cells on their codes: no toast per page.
    call(regionApi.names, { query: { codes: chunk.join(',') } }, { meta: { whitelist: [400, 403, 404] } }).then(
      (rows) => {
        const names = new Map(rows.map((r) => [r.code, r.name]));
        for (const c of chunk) for (const w of batch.get(c) ?? []) w.resolve(names.get(c) ?? null);
      },
      (err: unknown) => {
        for (const c of chunk) for (const w of batch.get(c) ?? []) w.reject(err);
      },
    );
  }
}

export type ImportSummary = AnswerOf<typeof regionApi.importXlsx>;

/** Uploads a workbook; a refused import (400) answers its per-row errors instead of a toast. */
export async function importRegions(
  file: File,
  onProgress: (percent: number) => void,
): Promise<{ ok: boolean; msg: string; summary: ImportSummary }> {
  const form = new FormData();
  form.append('file', file);
  try {
    const res = await request(
      regionApi.importXlsx,
      { body: form },
      {
        timeout: 0,
        meta: { whitelist: [400] },
        onUploadProgress: (e: AxiosProgressEvent) => onProgress(e.total ? Math.round((e.loaded / e.total) * 100) : 0),
      },
    );
    return { ok: true, msg: res.data.msg, summary: res.data.data };
  } catch (err) {
    const body = (err as { response?: { data?: { code?: number; msg?: string; data?: unknown } } }).response?.data;
    const summary = body?.data as ImportSummary | undefined;
    if (body?.code === 400 && summary && Array.isArray(summary.errors))
      return { ok: false, msg: body.msg ?? '', summary };
    // Any other refusal (no file, not a workbook): its message in the usual toast.
    if (body?.code === 400 && body.msg) notify().error(body.msg);
    throw err;
  }
}

/** Downloads the workbook of a subtree (or of every region) and hands it to the browser. */
export async function exportRegions(code: string | undefined, onProgress: (percent: number) => void) {
  const res = await request<typeof regionApi.exportXlsx, Blob>(
    regionApi.exportXlsx,
    { query: code ? { code } : {} },
    {
      responseType: 'blob',
      timeout: 0,
      // A refusal arrives as a blob too: its message is read here, not guessed by the client.
      meta: { whitelist: [400, 403, 404] },
      onDownloadProgress: (e: AxiosProgressEvent) => onProgress(e.total ? Math.round((e.loaded / e.total) * 100) : 0),
    },
  ).catch(async (err: unknown) => {
    const text = await refusalOf(err);
    if (text) notify().error(text);
    throw err;
  });
  saveBlob(fileNameOf(res.headers, `regions${code ? `-${code}` : ''}.xlsx`), res.data);
}
