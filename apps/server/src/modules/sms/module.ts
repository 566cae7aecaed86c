import { and, eq, ne, sql } from 'drizzle-orm';
import { resourceApi } from '@atrium/contract';
import { apiSchemas } from '@atrium/contract/schemas';
import { sms } from '@atrium/contract/resources/resource/sms';
import { fromContract } from '../../platform/contract-route.ts';
import { ok } from '../../platform/envelope.ts';
import { badRequest, type FieldError } from '../../platform/errors.ts';
import { requireAuth } from '../../platform/guard.ts';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { withTenant } from '../../platform/tenant-db.ts';
import type { Msg } from '@atrium/contract';
import { outboxTexts as texts, enqueueSms, PHONE, renderTemplate, smsConfig } from '../outbox/index.ts';
import { seal } from '../../platform/secrets.ts';

const fieldError = (field: string, message: Msg) => badRequest(message, [{ field, message } satisfies FieldError]);

/** `params` as sent: an object, or its JSON text (the console family sends it as a query parameter). */
function paramsOf(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null || raw === '') return {};
  let v: unknown = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw) as unknown;
    } catch {
      throw fieldError('params', texts.badParams);
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw fieldError('params', texts.badParams);
  const out: Record<string, string> = {};
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > 20) throw fieldError('params', texts.badParams);
  for (const [k, x] of entries) {
    if (!/^\w{1,32}$/.test(k) || (typeof x !== 'string' && typeof x !== 'number') || String(x).length > 200)
      throw fieldError('params', texts.badParams);
    out[k] = String(x);
  }
  return out;
}

/** What send-message takes, from the body or the query (the contract's schema). */
const sendBody = apiSchemas.resource.sendMessageInput;

/** 短信配置 (docs/outbox.md "SMS"): CRUD on the definition, `enable`, and `endpoint/send-message`. */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(sms, smsConfig, {
      async beforeSave({ input, existing }) {
        const category = Number(input.category ?? existing?.category ?? 1);
        const has = (k: string, stored = k) =>
          (typeof input[k] === 'string' && (input[k] as string) !== '') ||
          (!(k in input) && !!existing?.[stored]) ||
          (k === 'secretKey' && !!existing?.secretKeySealed);
        if (category === 2 || category === 3) {
          if (!has('accessKey') || !has('secretKey'))
            throw fieldError(has('accessKey') ? 'secretKey' : 'accessKey', texts.needKeys);
          if (!has('templateId') || !has('signName'))
            throw fieldError(has('templateId') ? 'signName' : 'templateId', texts.needTemplate);
          if (category === 3 && !has('appId')) throw fieldError('appId', texts.needAppId);
        }
        if (category === 4 && !has('endpoint')) throw fieldError('endpoint', texts.needEndpoint);
        const secret = input.secretKey;
        return typeof secret === 'string' && secret !== '' ? { secretKeySealed: seal(s, secret) } : {};
      },
      actions: {
        // The one active configuration of the tenant: the others are switched off first (a partial unique index
        // holds at most one; docs/outbox.md).
        async enable({ tx, auth, rows }) {
          await tx
            .update(smsConfig)
            .set({ status: 1, updateUser: auth.userId, updateTime: s.now(), version: sql`${smsConfig.version} + 1` })
            .where(and(eq(smsConfig.tenantId, auth.tenantId), eq(smsConfig.status, 2), ne(smsConfig.id, rows[0].id)));
        },
      },
    }),
  );

  app.route({
    ...fromContract(resourceApi.sendMessage, apiSchemas.resource.sendMessage, ['sms']),
    handler: async (req) => {
      const auth = requireAuth(req);
      const parsed = sendBody.safeParse({ ...(req.query as object), ...((req.body as object) ?? {}) });
      if (!parsed.success) throw fieldError('phones', texts.badPhone);
      const { code, phones: rawPhones, params: rawParams } = parsed.data;
      const phones = [
        ...new Set(
          (Array.isArray(rawPhones) ? rawPhones.map(String) : String(rawPhones ?? '').split(','))
            .map((p) => p.trim())
            .filter(Boolean),
        ),
      ];
      if (!phones.length) throw fieldError('phones', texts.noRecipient);
      if (phones.length > 100) throw fieldError('phones', texts.tooManyRecipients);
      const bad = phones.find((p) => !PHONE.test(p));
      if (bad) throw fieldError('phones', texts.badPhone);
      const params = paramsOf(rawParams);
      const ids = await withTenant(s.db, auth.tenantId, async (tx) => {
        const [cfg] = await tx
          .select()
          .from(smsConfig)
          .where(
            and(
              eq(smsConfig.tenantId, auth.tenantId),
              eq(smsConfig.isDeleted, 0),
              code ? eq(smsConfig.smsCode, code.trim()) : eq(smsConfig.status, 2),
            ),
          );
        if (code && !cfg) throw fieldError('code', texts.unknownCode);
        const text = cfg?.content ? renderTemplate(cfg.content, params) : undefined;
        const out: string[] = [];
        for (const phone of phones)
          out.push(
            await enqueueSms(s, tx, {
              tenantId: auth.tenantId,
              phone,
              text,
              templateCode: code?.trim() || cfg?.smsCode || undefined,
              params,
              configId: code ? cfg!.id : undefined,
              userId: auth.userId,
            }),
          );
        return out;
      });
      return ok(ids, texts.queued);
    },
  });
});
