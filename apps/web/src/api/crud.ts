import type { ApiRoute, Page } from '@atrium/contract';
import { get, post } from './http';

/**
 * Where a CRUD screen lists its records: a path under its base (`list`, a definition's `listPath`), or a route
 * declared in the contract answering the same page or tree (e.g. the review queue `business.clientInfoVerify`;
 * docs/api.md "Routes in the contract").
 */
export type ListSource = string | ApiRoute;
export const listUrl = (base: string, list: ListSource = 'list') =>
  typeof list === 'string' ? `${base}/${list}` : list.path;

/** The four calls every CRUD module answers (docs/system-api.md "Lists and trees"). */
export const crudApi = (base: string, list: ListSource = 'list') => ({
  list: <T>(params: Record<string, unknown>) => get<Page<T>>(listUrl(base, list), params),
  /** The list call answering an array (a whole tree). */
  all: <T>(params: Record<string, unknown>) => get<T[]>(listUrl(base, list), params),
  /** A call under base answering an array (one lazy level). */
  rows: <T>(path: string, params: Record<string, unknown>) => get<T[]>(`${base}/${path}`, params),
  detail: <T>(id: string) => get<T>(`${base}/detail`, { id }),
  // 409 is handled by the page (offer to reload), so the client does not toast it.
  submit: <T>(row: object, path = 'submit') => post<T>(`${base}/${path}`, row, { meta: { whitelist: [409] } }),
  remove: (ids: string[]) => post<boolean>(`${base}/remove`, null, { params: { ids: ids.join(',') } }),
});

export type FieldError = { field: string; message: string };

/** The status and field errors of a rejected call, if the server sent them. */
export function errorOf(err: unknown): { status?: number; fields: FieldError[] } {
  const res = (err as { response?: { status?: number; data?: { code?: number; data?: unknown } } })?.response;
  const body = res?.data;
  const fields = Array.isArray(body?.data)
    ? (body!.data as FieldError[]).filter((f) => f && typeof f.field === 'string')
    : [];
  return { status: typeof body?.code === 'number' ? body.code : res?.status, fields };
}
