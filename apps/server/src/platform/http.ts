import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, langOf, render, texts } from './errors.ts';
import { fail } from './envelope.ts';
import { translateField } from './fields.ts';

/** Language per request, the envelope for every error, and the /api 404. */
export function registerHttpBasics(app: FastifyInstance): void {
  app.decorateRequest('lang', 'zh');
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (req, reply) => {
    req.lang = langOf(req.headers['accept-language']);
    reply.header('x-request-id', req.id);
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const lang = req.lang ?? 'zh';
    if (err instanceof AppError) {
      const body = fail(err.status, render(err.text, lang), err.fields ?? null);
      return reply.status(err.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => ({
        field:
          String(v.instancePath || '')
            .replace(/^\//, '')
            .replace(/\//g, '.') ||
          String((v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ?? ''),
        message: translateField(v.message ?? 'invalid', lang),
      }));
      const summary = fields.map((f) => (f.field ? `${f.field}: ${f.message}` : f.message)).join('; ');
      return reply.status(400).send(fail(400, `${render(texts.badRequest, lang)}: ${summary}`, fields));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type): say what, never how.
      const known: Record<string, { zh: string; en: string }> = {
        FST_ERR_CTP_INVALID_JSON_BODY: { zh: '请求体不是合法的 JSON', en: 'The body is not valid JSON' },
        FST_ERR_CTP_EMPTY_JSON_BODY: { zh: '请求体为空', en: 'The body is empty' },
        FST_ERR_CTP_BODY_TOO_LARGE: { zh: '请求体过大', en: 'The body is too large' },
        FST_ERR_CTP_INVALID_MEDIA_TYPE: { zh: '不支持的请求类型', en: 'Unsupported content type' },
        FST_REQ_FILE_TOO_LARGE: { zh: '文件大小超出限制', en: 'The file is too large' },
      };
      const text = known[err.code] ?? texts.badRequest;
      return reply.status(status).send(fail(status, render(text, lang)));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(fail(500, `${render(texts.unknown, lang)} (request id: ${req.id})`));
  });
}
