import i18n from '../i18n';

/**
 * What a response means to the console (docs/product.md "Messages and errors"): pure but for the locale, so the
 * rules are unit tested.
 */
export type Outcome = { kind: 'ok' } | { kind: 'silent' } | { kind: 'logout' } | { kind: 'error'; message: string };

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
      i18n.t('http.unknown');
    return { kind: 'error', message };
  }
  return { kind: 'ok' };
}
