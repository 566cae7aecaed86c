import type { AxiosRequestConfig } from 'axios';
import {
  methodsOf,
  pathOf,
  type AnswerOf,
  type ApiRoute,
  type BodyOf,
  type ParamsOf,
  type QueryOf,
} from '@atrium/contract';
import { get, http, post } from './http';

/** A multipart route (`bodyType: 'multipart'`, an upload) takes the form itself as its body. */
type Body<R> = R extends { bodyType: 'multipart' } ? FormData : BodyOf<R>;
type CallInput<R> = { query?: QueryOf<R>; body?: Body<R>; params?: ParamsOf<R> };

/**
 * A call of a route declared in the contract (docs/api.md "Routes in the contract"): its method and path come from
 * the declaration, its query, body and answer are typed by the declaration's schemas.
 */
export async function call<R extends ApiRoute>(
  route: R,
  input: CallInput<R> = {},
  config: AxiosRequestConfig = {},
): Promise<AnswerOf<R>> {
  const url = pathOf(route, (input.params ?? {}) as Record<string, string>);
  const query = input.query as object | undefined;
  const get_ = methodsOf(route)[0] === 'GET';
  // The OAuth token and the captcha answer the object itself (`wire: 'plain'`); every other call the envelope.
  if (route.wire === 'plain') {
    const res = get_
      ? await http.get<AnswerOf<R>>(url, { ...config, params: query })
      : await http.post<AnswerOf<R>>(url, input.body ?? null, { ...config, params: query });
    return res.data;
  }
  return get_ ? get<AnswerOf<R>>(url, query, config) : post<AnswerOf<R>>(url, input.body, { ...config, params: query });
}
