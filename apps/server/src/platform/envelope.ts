export type Envelope<T> = { code: number; success: boolean; data: T; msg: string };

export function ok<T>(data: T, msg = '操作成功'): Envelope<T> {
  return { code: 200, success: true, data, msg };
}

export function fail(code: number, msg: string, data: unknown = null): Envelope<unknown> {
  return { code, success: false, data, msg };
}
