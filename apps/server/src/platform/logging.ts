import type { FastifyServerOptions } from 'fastify';
import { describeUnavailable, isDatabaseUnavailable } from '../db/availability.ts';

/**
 * What the logs may hold (docs/server.md "Logs"): no credential ever. The token endpoint carries the password hash,
 * refresh token and captcha in its query; those values are replaced before a line is written. A failed query's
 * parameters (a new user's password hash, say) never reach a log line: only the SQL text does.
 */
const SECRET_PARAMS =
  /^(password|oldPassword|newPassword|newPassword1|pwd|refresh_token|access_token|token|code|captcha|captchaCode|secret|clientSecret|verificationCode|ticket)$/i;

export function redactUrl(url: string): string {
  const i = url.indexOf('?');
  if (i < 0) return url;
  const params = new URLSearchParams(url.slice(i + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.test(key)) {
      params.set(key, '[REDACTED]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, i)}?${params.toString()}` : url;
}

/** A URL's user and password (`scheme://user:password@host`), up to the last `@` before the path. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>@]*(?:@[^\s/?#"'<>@]*)*@/gi;

/**
 * Text with the credentials of every URL in it replaced (`rtsp://[REDACTED]@10.0.0.5/…`): the one function every
 * log line passes through (`loggerOptions`), also used where a module keeps such text (ffmpeg's stderr of a stream).
 */
export function redactCredentials(text: string): string {
  return text.includes('://') ? text.replace(URL_CREDENTIALS, '$1[REDACTED]@') : text;
}

/**
 * An error as it may be logged: a failed query's SQL text and the database's error code, constraint, table and
 * column — never its parameters, and never the database's message, which quotes the offending value.
 */
export function loggableError(err: unknown): Record<string, unknown> {
  // The database went away: what happened is the whole story (one line per failure, no statement, no stack).
  if (isDatabaseUnavailable(err))
    return { type: (err as { name?: string })?.name, databaseUnavailable: describeUnavailable(err) };
  const strip = (s: unknown) => (typeof s === 'string' ? s.replace(/\nparams: [\s\S]*?(\n {4}at |$)/, '$1') : s);
  const e = err as { name?: string; message?: string; stack?: string; code?: string; cause?: unknown };
  const db = e?.cause as { code?: string; constraint?: string; table?: string; column?: string } | undefined;
  const fromDb = !!db && typeof db.code === 'string' && /^[0-9A-Z]{5}$/.test(db.code);
  return {
    type: e?.name,
    message: strip(e?.message),
    stack: strip(e?.stack),
    code: e?.code,
    db: fromDb ? { code: db.code, constraint: db.constraint, table: db.table, column: db.column } : undefined,
  };
}

/** The server's logger: JSON lines with the request id, secrets left out. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers["blade-auth"]', 'req.headers["captcha-code"]'],
    // Every line, whatever wrote it: no URL's user:password (a camera's stream or ONVIF address, a broker URL).
    hooks: { streamWrite: redactCredentials },
    serializers: {
      // Every `err` a line carries, wherever it is logged from (a request, a worker, the broker), goes through the
      // same filter: no statement parameters, no database message quoting a value.
      // fastify types the answer as pino's default (type, message, stack always); a lost database's has no stack.
      err: loggableError as never,
      req: (req: {
        method: string;
        url: string;
        hostname?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
      }),
    },
  };
}
