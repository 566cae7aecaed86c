import type { Readable } from 'node:stream';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';

/**
 * The senders the worker delivers through (docs/outbox.md "Providers"). Each throws a DeliveryError on failure; the
 * worker records its message and retries, unless `permanent`.
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

/** What an SMS provider needs of the tenant's configuration (the secret already opened). */
export type SmsConfig = {
  category: number;
  templateId: string | null;
  signName: string | null;
  accessKey: string | null;
  secretKey: string | null;
  appId: string | null;
  region: string | null;
  endpoint: string | null;
};

export type SmsMessage = {
  id: string;
  tenantId: string;
  phone: string;
  text: string;
  templateCode: string | null;
  params: Record<string, string>;
};

const TIMEOUT_MS = 15_000;

async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      body,
      headers,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (err) {
    throw new DeliveryError(`request to ${new URL(url).host} failed: ${(err as Error).message}`);
  }
  const text = (await res.text().catch(() => '')).slice(0, 2000);
  return { status: res.status, text };
}

const parse = (text: string): Record<string, unknown> | null => {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** RFC 3986 encoding as Aliyun's RPC signature wants it (space %20, `*` %2A, `~` kept, `!'()` encoded). */
export const aliyunEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Aliyun SMS `SendSms` (dysmsapi 2017-05-25), RPC style, signature version 1.0 (HMAC-SHA1 over
 * `POST&%2F&<encoded canonical query>` with key `<secret>&`), sent as a form body.
 */
export function aliyunRequest(cfg: SmsConfig, msg: SmsMessage, now: Date, nonce = randomUUID()) {
  const params: Record<string, string> = {
    AccessKeyId: cfg.accessKey ?? '',
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: msg.phone.replace(/^\+86/, ''),
    RegionId: cfg.region || 'cn-hangzhou',
    SignName: cfg.signName ?? '',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: nonce,
    SignatureVersion: '1.0',
    TemplateCode: cfg.templateId ?? '',
    Timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: '2017-05-25',
  };
  if (Object.keys(msg.params).length) params.TemplateParam = JSON.stringify(msg.params);
  params.OutId = msg.id;
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${aliyunEncode(k)}=${aliyunEncode(params[k])}`)
    .join('&');
  const toSign = `POST&${aliyunEncode('/')}&${aliyunEncode(canonical)}`;
  const signature = createHmac('sha1', `${cfg.secretKey ?? ''}&`)
    .update(toSign)
    .digest('base64');
  const body = `Signature=${aliyunEncode(signature)}&${canonical}`;
  return { url: cfg.endpoint || 'https://dysmsapi.aliyuncs.com/', body };
}

async function sendAliyun(cfg: SmsConfig, msg: SmsMessage, now: Date): Promise<void> {
  const { url, body } = aliyunRequest(cfg, msg, now);
  const res = await post(url, body, { 'content-type': 'application/x-www-form-urlencoded' });
  const json = parse(res.text);
  if (res.status === 200 && json?.Code === 'OK') return;
  throw new DeliveryError(
    `aliyun: ${String(json?.Code ?? res.status)} ${String(json?.Message ?? res.text.slice(0, 200))}`,
  );
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();

/**
 * Tencent Cloud SMS `SendSms` (2021-01-11), API 3.0 signature TC3-HMAC-SHA256 over the canonical request (POST, `/`,
 * headers content-type and host, the body's SHA-256).
 */
export function tencentRequest(cfg: SmsConfig, msg: SmsMessage, now: Date) {
  const url = new URL(cfg.endpoint || 'https://sms.tencentcloudapi.com/');
  const host = url.host;
  const timestamp = Math.floor(now.getTime() / 1000);
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const phone = msg.phone.startsWith('+') ? msg.phone : `+86${msg.phone}`;
  const payload = JSON.stringify({
    PhoneNumberSet: [phone],
    SmsSdkAppId: cfg.appId ?? '',
    SignName: cfg.signName ?? '',
    TemplateId: cfg.templateId ?? '',
    TemplateParamSet: Object.values(msg.params).map(String),
    SessionContext: msg.id,
  });
  const contentType = 'application/json; charset=utf-8';
  const canonical = [
    'POST',
    '/',
    '',
    `content-type:${contentType}`,
    `host:${host}`,
    '',
    'content-type;host',
    sha256(payload),
  ].join('\n');
  const scope = `${date}/sms/tc3_request`;
  const toSign = ['TC3-HMAC-SHA256', String(timestamp), scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(`TC3${cfg.secretKey ?? ''}`, date), 'sms'), 'tc3_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  const headers = {
    authorization: `TC3-HMAC-SHA256 Credential=${cfg.accessKey ?? ''}/${scope}, SignedHeaders=content-type;host, Signature=${signature}`,
    'content-type': contentType,
    host,
    'x-tc-action': 'SendSms',
    'x-tc-timestamp': String(timestamp),
    'x-tc-version': '2021-01-11',
    'x-tc-region': cfg.region || 'ap-guangzhou',
  };
  return { url: url.toString(), payload, headers };
}

async function sendTencent(cfg: SmsConfig, msg: SmsMessage, now: Date): Promise<void> {
  const { url, payload, headers } = tencentRequest(cfg, msg, now);
  const { host: _host, ...sent } = headers;
  const res = await post(url, payload, sent);
  const json = parse(res.text)?.Response as
    { Error?: { Code?: string; Message?: string }; SendStatusSet?: { Code?: string; Message?: string }[] } | undefined;
  const status = json?.SendStatusSet?.[0];
  if (res.status === 200 && !json?.Error && status?.Code === 'Ok') return;
  const e = json?.Error ?? status;
  throw new DeliveryError(`tencent: ${String(e?.Code ?? res.status)} ${String(e?.Message ?? res.text.slice(0, 200))}`);
}

/**
 * A webhook: the message as JSON; with a secret key, `X-Atrium-Signature: sha256=<hex HMAC-SHA256 of the body>`.
 * Any 2xx answer is a delivery.
 */
async function sendWebhook(cfg: SmsConfig, msg: SmsMessage): Promise<void> {
  if (!cfg.endpoint) throw new DeliveryError('webhook: no endpoint', true);
  const body = JSON.stringify({
    id: msg.id,
    tenantId: msg.tenantId,
    phone: msg.phone,
    text: msg.text,
    templateCode: msg.templateCode,
    templateId: cfg.templateId,
    signName: cfg.signName,
    params: msg.params,
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cfg.secretKey)
    headers['x-atrium-signature'] = `sha256=${createHmac('sha256', cfg.secretKey).update(body).digest('hex')}`;
  const res = await post(cfg.endpoint, body, headers);
  if (res.status >= 200 && res.status < 300) return;
  throw new DeliveryError(`webhook: HTTP ${res.status} ${res.text.slice(0, 200)}`);
}

/** Delivers one SMS through a configuration of category 2, 3 or 4; answers the provider's name. */
export async function sendSms(cfg: SmsConfig, msg: SmsMessage, now: Date): Promise<string> {
  if (cfg.category === 2) return sendAliyun(cfg, msg, now).then(() => 'aliyun');
  if (cfg.category === 3) return sendTencent(cfg, msg, now).then(() => 'tencent');
  if (cfg.category === 4) return sendWebhook(cfg, msg).then(() => 'webhook');
  throw new DeliveryError(`unknown SMS category ${cfg.category}`, true);
}

export type SmtpSettings = {
  host: string;
  port: number;
  tlsMode: number;
  username: string | null;
  password: string | null;
  fromAddress: string;
  fromName: string | null;
};

export type EmailMessage = {
  to: string;
  subject: string;
  text: string | null;
  html: string | null;
  attachments: { filename: string; content: Readable }[];
  messageId: string;
};

/** Sends one email through an SMTP server (nodemailer); TLS mode 1 none, 2 STARTTLS required, 3 implicit TLS. */
export async function sendEmail(cfg: SmtpSettings, msg: EmailMessage): Promise<string> {
  const transport = nodemailer.createTransport({
    host: cfg.host,
    port: cfg.port,
    secure: cfg.tlsMode === 3,
    requireTLS: cfg.tlsMode === 2,
    ignoreTLS: cfg.tlsMode === 1,
    auth: cfg.username ? { user: cfg.username, pass: cfg.password ?? '' } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS * 2,
  });
  try {
    await transport.sendMail({
      from: cfg.fromName ? { name: cfg.fromName, address: cfg.fromAddress } : cfg.fromAddress,
      to: msg.to,
      subject: msg.subject,
      text: msg.text ?? undefined,
      html: msg.html ?? undefined,
      attachments: msg.attachments,
      messageId: msg.messageId,
    });
    return 'smtp';
  } catch (err) {
    const e = err as { message?: string; responseCode?: number };
    // 5xx answers (a refused recipient, a refused message) will not change by themselves.
    throw new DeliveryError(
      `smtp: ${e.message ?? String(err)}`,
      !!e.responseCode && e.responseCode >= 500 && e.responseCode !== 535,
    );
  } finally {
    transport.close();
  }
}
