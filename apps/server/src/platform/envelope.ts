import { messages, type Msg } from '@atrium/contract';

/** An answer's `msg` may be a Msg: the preSerialization hook (platform/http.ts) renders it in the request's language. */
export type Envelope<T> = { code: number; success: boolean; data: T; msg: string | Msg };

export function ok<T>(data: T, msg: string | Msg = messages.ok): Envelope<T> {
  return { code: 200, success: true, data, msg };
}

export function fail(code: number, msg: string, data: unknown = null): Envelope<unknown> {
  return { code, success: false, data, msg };
}
