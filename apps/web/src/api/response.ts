/** What a response means to the console (spec §8): pure, so the rules are unit tested. */
export type Outcome = { kind: 'ok' } | { kind: 'silent' } | { kind: 'logout' } | { kind: 'error'; message: string };

export const UNKNOWN_ERROR = '未知错误';

export function classify(httpStatus: number, body: unknown, whitelist: number[] = []): Outcome {
  const b = (body && typeof body === 'object' ? body : {}) as {
    code?: unknown;
    msg?: unknown;
    error_description?: unknown;
  };
  const status = typeof b.code === 'number' ? b.code : httpStatus;
  if (whitelist.includes(status)) return { kind: 'silent' };
  if (status === 401) return { kind: 'logout' };
  if (status !== 200) {
    const message =
      (typeof b.msg === 'string' && b.msg) ||
      (typeof b.error_description === 'string' && b.error_description) ||
      UNKNOWN_ERROR;
    return { kind: 'error', message };
  }
  return { kind: 'ok' };
}
