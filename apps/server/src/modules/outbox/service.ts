import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { availabilityOf, type Db } from '../../db/client.ts';
import { newId } from '../../db/ids.ts';
import { attach } from '../../db/schema/index.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { queueDatabases } from '../../platform/tenant-route.ts';
import { outboxTexts as texts } from './messages.ts';
import { outbox, outboxJob } from './table.ts';
import { kickWorkers } from './worker.ts';

/**
 * The outbox service (docs/outbox.md "Service"): other modules queue an SMS or an email INSIDE their own
 * transaction (the `tx` of their `withTenant`), so the message exists if and only if their write commits. The
 * worker of their app (`s`) delivers it after the commit, through the tenant's active configuration, with retries.
 */

export type SmsRequest = {
  tenantId: string;
  /** 11-digit mainland mobile, or an international number starting with + */
  phone: string;
  /** What the recipient reads (an SMS code must be readable here); rendered from `params` when absent. */
  text?: string;
  /** The caller's template name (e.g. 'verify'), recorded and passed to webhooks. */
  templateCode?: string;
  /** Template parameters: Aliyun gets them by name, Tencent Cloud in this order. */
  params?: Record<string, string | number>;
  /** A configuration of the tenant to send through instead of the active one. */
  configId?: string;
  /** What the message is about (e.g. 'client' and its id), for the caller's own history. */
  refType?: string;
  refId?: string;
  /** The user who caused it (audit column). */
  userId?: string;
  /** Earliest delivery (default now). */
  notBefore?: Date;
};

export type EmailRequest = {
  tenantId: string;
  to: string;
  subject: string;
  /** HTML body: sanitize what a user typed before passing it (the outbox sends it as given). */
  html?: string;
  /** Plain-text body (default: the HTML without its tags). */
  text?: string;
  /** Ids of the tenant's uploaded files (`attach`, from put-file). */
  attachIds?: string[];
  /** An SMTP configuration of the tenant to send through instead of the active one (a test email). */
  configId?: string;
  refType?: string;
  refId?: string;
  userId?: string;
  notBefore?: Date;
};

export const PHONE = /^(1\d{10}|\+[1-9]\d{6,14})$/;
export const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

/** `${name}` placeholders of a template filled from the parameters (unknown names stay as they are). */
export function renderTemplate(template: string, params: Record<string, string | number>): string {
  return template.replace(/\$\{(\w+)\}/g, (all, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : all,
  );
}

/** The text of an SMS without a template: its parameters, one `name: value` per line. */
const paramsText = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

/** The HTML's text: tags dropped, entities of the common characters decoded, blank runs folded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|li|h\d|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
}

async function insert(
  s: Services,
  tx: Db,
  values: typeof outbox.$inferInsert,
  notBefore: Date | undefined,
): Promise<string> {
  const now = new Date();
  const due = notBefore ?? now;
  await tx.insert(outbox).values({ ...values, nextAttemptTime: due, createTime: now, updateTime: now });
  await tx.insert(outboxJob).values({ id: values.id!, tenantId: values.tenantId, dueAt: due });
  // The caller's transaction has not committed yet: the app's workers look shortly after, and poll anyway.
  kickWorkers(s);
  return values.id!;
}

/** Queues one SMS in the caller's transaction; answers the outbox id. Bad input is a 400. */
export async function enqueueSms(s: Services, tx: Db, req: SmsRequest): Promise<string> {
  const phone = req.phone?.trim() ?? '';
  if (!PHONE.test(phone)) throw badRequest(texts.badPhone, [{ field: 'phone', message: texts.badPhone }]);
  const params = req.params ?? {};
  if (typeof params !== 'object' || Array.isArray(params)) throw badRequest(texts.badParams);
  const text = (req.text ?? paramsText(params)).trim();
  if (!text) throw badRequest(texts.emptyMessage);
  return insert(
    s,
    tx,
    {
      id: newId(),
      tenantId: req.tenantId,
      channel: 'sms',
      recipient: phone,
      content: text.slice(0, 2000),
      templateCode: req.templateCode?.slice(0, 64) ?? null,
      params: JSON.stringify(params),
      configId: req.configId ?? null,
      refType: req.refType ?? null,
      refId: req.refId ?? null,
      createUser: req.userId ?? null,
    },
    req.notBefore,
  );
}

/** Queues one email in the caller's transaction; answers the outbox id. Unknown attachments are a 400. */
export async function enqueueEmail(s: Services, tx: Db, req: EmailRequest): Promise<string> {
  const to = req.to?.trim() ?? '';
  if (!EMAIL.test(to) || to.length > 255) throw badRequest(texts.badEmail, [{ field: 'to', message: texts.badEmail }]);
  const ids = [...new Set(req.attachIds ?? [])];
  if (ids.length > 20) throw badRequest(texts.tooManyAttach);
  if (ids.some((id) => !/^\d{1,19}$/.test(id))) throw badRequest(texts.badAttach);
  if (ids.length) {
    const found = await tx
      .select({ id: attach.id })
      .from(attach)
      .where(and(eq(attach.tenantId, req.tenantId), eq(attach.isDeleted, 0), inArray(attach.id, ids)));
    if (found.length !== ids.length)
      throw badRequest(texts.badAttach, [{ field: 'attachIds', message: texts.badAttach }]);
  }
  const text = req.text ?? (req.html ? htmlToText(req.html) : '');
  if (!text.trim() && !req.html?.trim()) throw badRequest(texts.emptyMessage);
  return insert(
    s,
    tx,
    {
      id: newId(),
      tenantId: req.tenantId,
      channel: 'email',
      recipient: to,
      subject: req.subject.slice(0, 255),
      content: text,
      html: req.html ?? null,
      attachIds: ids.length ? ids.join(',') : null,
      configId: req.configId ?? null,
      refType: req.refType ?? null,
      refId: req.refId ?? null,
      createUser: req.userId ?? null,
    },
    req.notBefore,
  );
}

/** How long the backlog's count may take when scraped before it is given up (the scrape answers without it). */
const BACKLOG_TIMEOUT_MS = 1000;

/**
 * The delivery backlog across tenants (docs/deploy.md "Metrics"): messages still to deliver (`outbox_job` rows, which
 * hold no content) and those whose time has come, over every database that holds queues (the main one and the data
 * sources of moved tenants: docs/tenants.md "Background work"). Null while one is down or slow to answer.
 */
export async function backlog(s: Services): Promise<{ queued: number; due: number } | null> {
  if (availabilityOf(s.db)?.down) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), BACKLOG_TIMEOUT_MS)));
  const countOn = (db: Db) =>
    db
      .select({
        queued: sql<number>`count(*)::int`,
        due: sql<number>`(count(*) filter (where ${lte(outboxJob.dueAt, s.now())}))::int`,
      })
      .from(outboxJob)
      .then(([row]) => row ?? { queued: 0, due: 0 });
  const counted = Promise.all(queueDatabases(s.db).map(countOn)).then(
    (rows) => rows.reduce((a, r) => ({ queued: a.queued + r.queued, due: a.due + r.due }), { queued: 0, due: 0 }),
    () => null,
  );
  try {
    return await Promise.race([counted, late]);
  } finally {
    clearTimeout(timer);
  }
}
