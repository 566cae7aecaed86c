import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { API_PREFIX, decodeMsg, isApiCall, msg, type Msg } from '@atrium/contract';
import { AppError, langOf, render, texts } from './errors.ts';
import { fail } from './envelope.ts';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { runInLane } from '../db/fair-gate.ts';
import type { Availability } from '../db/availability.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Smaller answers go as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;
/** Answers up to this size are compressed on the event loop (a few tenths of a millisecond at most), larger ones on the thread pool. */
const COMPRESS_SYNC_MAX_BYTES = 16 * 1024;
/**
 * Answers up to this size (a page of ten rows is ≈ 5–7 kB) go at a fast setting: gzip level 1, brotli quality 2;
 * larger ones at gzip level 6, brotli quality 4.
 */
const FAST_MAX_BYTES = 8 * 1024;
const BROTLI = { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 };
const BROTLI_FAST = { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 };

/** Seconds a caller is asked to wait (`Retry-After`) when the database is unavailable. */
const RETRY_AFTER_DB_SECONDS = '1';

/**
 * Language per request, the envelope for every error, and the /api 404. With `availability`, an API call made while
 * the database is down is answered 503 at once, and an error that says the database went away is a 503 too
 * (docs/server.md "Database outages").
 */
export function registerHttpBasics(app: FastifyInstance, availability?: Availability, serverName?: string): void {
  app.decorateRequest('lang', 'zh');
  app.decorateRequest('auth', null);
  // Database connections are shared out fairly between callers (docs/server.md "Under load"): until the token names
  // the tenant and the user, a request's lane is its client address and route — one address's burst of logins does
  // not hold up a public read from the same address (many clients share one behind a NAT or a proxy).
  app.addHook('onRequest', (req, _reply, done) =>
    runInLane({ group: 'ip', member: `${req.ip} ${req.routeOptions.url ?? ''}` }, done),
  );
  // Hooks of every request take a callback, not a promise: nothing in them waits, and an async hook costs a promise
  // and its turns per request (docs/server.md "One answer per read").
  app.addHook('onRequest', (req, reply, done) => {
    req.lang = langOf(req.headers['accept-language']);
    reply.header('x-request-id', req.id);
    // Which server of a cluster answered (docs/cluster.md "The script").
    if (serverName) reply.header('x-atrium-server', serverName);
    done();
  });
  if (availability)
    app.addHook('onRequest', (req, reply, done) => {
      // The console's files are still served; an API call would only wait for a connection that will not come.
      if (!availability.down || !isApiCall(req.url)) return done();
      reply
        .status(503)
        .header('retry-after', RETRY_AFTER_DB_SECONDS)
        .send(fail(503, render(texts.databaseUnavailable, req.lang)));
    });
  // No text column can hold a NUL byte: refuse it anywhere in a query or a JSON body with a 400 naming the field,
  // before any validator or query sees it.
  app.addHook('preValidation', (req, _reply, done) => {
    const where = findNul(req.query, '') ?? findNul(req.body, '');
    if (where === null) return done();
    const label = { zh: where || 'body', en: where || 'body' };
    done(new AppError(400, msg('nulByte', { label }), [{ field: where, message: msg('nulByte', { label }) }]));
  });
  // API answers above 1 kB go compressed when the client accepts it (docs/server.md "Compressed answers"): the menu
  // and button trees a console loads after login are tens of kilobytes of JSON.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (typeof payload !== 'string' || payload.length < COMPRESS_MIN_BYTES) return done(null, payload);
    if (!req.url.startsWith(API_PREFIX) || reply.hasHeader('content-encoding')) return done(null, payload);
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return done(null, payload);
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
    reply.header('vary', 'accept-encoding');
    if (!encoding) return done(null, payload);
    const body = Buffer.from(payload);
    // A small answer is packed at once: the hop to the thread pool and back costs about what packing it does. Up to
    // 8 kB at the fast setting: packed, such an answer and its headers go in the first flight of TCP segments at
    // either setting, and a page of ten rows then takes half the time for ≈ 9 % more bytes (docs/server.md
    // "Compressed answers").
    const packed = (out: Buffer) => {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, out);
    };
    if (body.length <= COMPRESS_SYNC_MAX_BYTES) {
      const fast = body.length <= FAST_MAX_BYTES;
      return packed(
        encoding === 'br'
          ? zlib.brotliCompressSync(body, { params: fast ? BROTLI_FAST : BROTLI })
          : zlib.gzipSync(body, { level: fast ? 1 : 6 }),
      );
    }
    (encoding === 'br' ? brotli(body, { params: BROTLI }) : gzip(body, { level: 6 })).then(packed, done);
  });
  // Success texts may be Msgs: the answer follows the request's language.
  app.addHook('preSerialization', (req, _reply, payload: unknown, done) => {
    const p = payload as { msg?: unknown } | null;
    if (p && typeof p === 'object' && p.msg && typeof p.msg === 'object')
      return done(null, { ...p, msg: render(p.msg as Msg, req.lang ?? 'zh') });
    done(null, payload);
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = req.lang ?? 'zh';
    if (err instanceof AppError) {
      const fields = err.fields?.map((f) => ({ field: f.field, message: render(f.message, lang) })) ?? null;
      const body = fail(err.status, render(err.text, lang), fields);
      return reply.status(err.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => ({
        field:
          String(v.instancePath || '')
            .replace(/^\//, '')
            .replace(/\//g, '.') ||
          String((v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ?? ''),
        message: v.message ?? 'invalid',
      }));
      // A catalogue message names its field already; an older one gets the field's label (never its key) in front.
      const labels = req.routeOptions.config?.labels ?? {};
      const shown = fields.map((f) => {
        const m = decodeMsg(f.message);
        if (m) return { field: f.field, message: m[lang], named: true };
        return { field: f.field, message: f.message, named: false };
      });
      const summary = shown
        .map((f) => {
          if (f.named || !f.field) return f.message;
          const label = labels[f.field.split('.')[0]];
          return `${label ? label[lang] : f.field}: ${f.message}`;
        })
        .join('; ');
      return reply.status(400).send(
        fail(
          400,
          `${render(texts.badRequest, lang)}: ${summary}`,
          shown.map((f) => ({ field: f.field, message: f.message })),
        ),
      );
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type): say what, never how.
      const known: Record<string, Msg> = {
        FST_ERR_CTP_INVALID_JSON_BODY: texts.badJson,
        FST_ERR_CTP_EMPTY_JSON_BODY: texts.emptyJson,
        FST_ERR_CTP_BODY_TOO_LARGE: texts.bodyTooLarge,
        FST_ERR_CTP_INVALID_MEDIA_TYPE: texts.badMediaType,
        FST_REQ_FILE_TOO_LARGE: texts.fileTooLarge,
      };
      const text = known[err.code] ?? texts.badRequest;
      return reply.status(status).send(fail(status, render(text, lang)));
    }
    if (availability?.failed(err)) {
      // The database ended the connection or cannot be reached: the transaction the request was in is rolled back by
      // PostgreSQL, and the caller may try again (logged once per outage, by the server's availability listener).
      return reply
        .status(503)
        .header('retry-after', RETRY_AFTER_DB_SECONDS)
        .send(fail(503, render(texts.databaseUnavailable, lang)));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(fail(500, `${render(texts.unknown, lang)} (request id: ${req.id})`));
  });
}

/** The path of the first string holding a NUL byte (keys included), or null. */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (!value || typeof value !== 'object' || depth > 20) return null;
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (k.includes('\u0000')) return at;
    const found = findNul(v, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
