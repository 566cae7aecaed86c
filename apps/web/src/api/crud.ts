import type { ApiRoute, Page } from '@atrium/contract';
import { call } from './call';
import { get, post } from './http';

/** A list call: a path under the resource's base, or a route declared in the contract (docs/api.md). */
export type ListCall = string | ApiRoute;

// A ListCall names any route, whose query type (QueryOf<ApiRoute>) is `undefined`: the list's own schema checks it.
const read = <T>(base: string, list: ListCall, params: Record<string, unknown>): Promise<T> =>
  typeof list === 'string' ? get<T>(`${base}/${list}`, params) : (call(list, { query: params as never }) as Promise<T>);

/** The four calls every CRUD module answers (docs/system-api.md "Lists and trees"). */
export const crudApi = (base: string, list: ListCall = 'list') => ({
  list: <T>(params: Record<string, unknown>) => read<Page<T>>(base, list, params),
  /** A list call answering an array (a whole tree, or one lazy level). */
  rows: <T>(path: ListCall, params: Record<string, unknown>) => read<T[]>(base, path, params),
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
