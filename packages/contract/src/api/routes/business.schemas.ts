import { z } from 'zod';
import { encodeMsg, idLabels, msg } from '../../resource/messages.ts';
import { bodySchema, idSchema, MAX_ID } from '../../resource/schema.ts';
import { approval } from '../../resources/customer/approval.ts';
import { clientinfo } from '../../resources/customer/clientinfo.ts';
import { subdomain_list } from '../../resources/subdomain/subdomain_list.ts';
import { apiTexts as texts } from '../messages.ts';
import { listQuery, pageOf, recordAnswer } from '../records.ts';
import type { RouteSchemas } from '../route.ts';

/** The schemas of the business calls (addresses in business.ts; docs/clients.md, docs/subdomains.md). */

const isId = (s: string) => /^\d{1,19}$/.test(s) && BigInt(s) <= MAX_ID;
/** Ids in a body or a query: an array or a comma list, possibly none (the call says what none means). */
const idArray = z
  .union([z.array(z.union([z.string(), z.number()])), z.string().max(20000)])
  .transform((v) => (Array.isArray(v) ? v.map(String) : v.split(',')).map((x) => x.trim()).filter(Boolean))
  .refine((a) => a.length <= 5000 && a.every(isId), encodeMsg(msg('notId', { label: idLabels.ids })));
const id = idSchema();
const ok = z.boolean();

// ——— Clients ———

const clientRecord = recordAnswer(clientinfo);
const clientPage = { query: listQuery, answer: pageOf(clientRecord) } satisfies RouteSchemas;

export const clientInfoVerify = clientPage;
export const clientInfoManageList = clientPage;

export const clientList = {
  query: z.object({ clientName: z.string().max(100).optional() }),
  answer: z.array(z.object({ id: z.string(), clientName: z.string(), regionCode: z.string() })),
} satisfies RouteSchemas;

export const delClientInfo = { query: z.object({ id }), answer: ok } satisfies RouteSchemas;

export const approveClients = {
  query: z.object({ ids: idArray.optional() }),
  body: z
    .object({
      ids: idArray.optional(),
      pass: z.coerce.boolean().default(false),
      opinion: z.string().max(500).nullish(),
    })
    .default({ pass: false }),
  answer: ok,
} satisfies RouteSchemas;

const password = z.string().min(1, encodeMsg(texts.clientPasswordRequired)).max(64);

export const updatePwd = { body: z.object({ clientInfoId: id, pwd: password }), answer: ok } satisfies RouteSchemas;

export const sendEmail = {
  body: z.object({
    clientIds: idArray.pipe(z.array(z.string()).min(1, encodeMsg(texts.chooseClients))),
    subject: z.string().trim().min(1, encodeMsg(texts.emailSubjectRequired)).max(200),
    content: z.string().trim().min(1, encodeMsg(texts.emailBodyRequired)).max(100_000),
    attachIds: idArray.optional(),
  }),
  answer: z.array(z.object({ clientId: z.string(), outboxId: z.string() })),
} satisfies RouteSchemas;

export const customerTrack = {
  body: z.object({
    clientId: id,
    trackType: z.coerce
      .number()
      .int()
      .refine((v) => [1, 2, 3, 4].includes(v), encodeMsg(texts.trackTypeBad)),
    content: z.string().trim().min(1, encodeMsg(texts.trackContentRequired)).max(2000),
    trackTime: z.coerce.date().optional(),
    nextTrackTime: z.coerce.date().nullish(),
  }),
  answer: z.object({ id: z.string() }),
} satisfies RouteSchemas;

/** A follow-up record; an email's carries its delivery state (1 queued, 2 sent, 3 failed: docs/outbox.md). */
const trackRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  /** 1 call, 2 visit, 3 email, 4 message. */
  trackType: z.number().int(),
  content: z.string(),
  trackTime: z.string(),
  nextTrackTime: z.string().nullable(),
  trackerName: z.string().nullable(),
  outboxId: z.string().nullable(),
  emailStatus: z.number().int().nullable(),
  emailError: z.string().nullable(),
});

export const clientTrackRecord = {
  query: z.object({ clientId: id }),
  answer: z.array(trackRecord),
} satisfies RouteSchemas;

// ——— The registration page ———

const phone = z
  .string()
  .trim()
  .regex(/^1[3-9]\d{9}$/, encodeMsg(texts.clientPhone));
const phoneQuery = z.object({ operatorTel: phone });
/** 1 register, 2 reset password. */
const codeType = z.coerce
  .number()
  .int()
  .refine((v) => v === 1 || v === 2, encodeMsg(texts.codeType));
const userAgent = z.string().trim().min(1, encodeMsg(texts.userAgentRequired)).max(500);
const ticket = z.string().trim().min(1, encodeMsg(texts.ticketBad)).max(100);

export const PHONE_STATES = ['free', 'registered', 'blocked'] as const;
export const REVIEW_STATES = ['none', 'pending', 'approved', 'rejected'] as const;

export const verify = { query: phoneQuery, answer: z.object({ state: z.enum(PHONE_STATES) }) } satisfies RouteSchemas;

export const verification = {
  query: phoneQuery.extend({ type: codeType, userAgent }),
  answer: ok,
} satisfies RouteSchemas;

export const verificat = {
  query: phoneQuery.extend({
    type: codeType,
    userAgent,
    verificationCode: z
      .string()
      .trim()
      .regex(/^\d{6}$/, encodeMsg(texts.codeDigits)),
  }),
  answer: z.object({ ticket: z.string() }),
} satisfies RouteSchemas;

/**
 * The client's form (the definition's body) with the chosen password and the ticket. The server checks the form
 * with its binding's body, which is this one with the columns' widths (docs/resources.md "Kinds and columns").
 */
export const register = {
  body: bodySchema(clientinfo).extend({ password, ticket }),
  answer: ok,
} satisfies RouteSchemas;

/** The body is the multipart upload itself (one file). */
export const licence = { answer: z.object({ link: z.string(), attachId: z.string() }) } satisfies RouteSchemas;

export const reviewed = {
  query: phoneQuery,
  answer: z.object({ status: z.enum(REVIEW_STATES) }),
} satisfies RouteSchemas;

export const resetPassword = {
  body: z.object({ operatorTel: phone, ticket, password }),
  answer: ok,
} satisfies RouteSchemas;

// ——— Approvals ———

const approvalRecord = recordAnswer(approval);

export const approvalPage = { query: listQuery, answer: pageOf(approvalRecord) } satisfies RouteSchemas;

export const approvalDetail = {
  query: z.object({ referId: id }),
  answer: z.array(approvalRecord),
} satisfies RouteSchemas;

export const businessApproval = {
  body: z.object({
    id,
    status: z.coerce.number().refine((v) => v === 1 || v === 2, encodeMsg(texts.approvalStatus)),
    opinion: z.string().max(500).nullish(),
  }),
  answer: ok,
} satisfies RouteSchemas;

// ——— Sub-domains ———

const label = z.string().max(255).default('');
const account = z.string().trim().max(45).optional();

export const checkSubDomainLegal = {
  query: z.object({ subDomain: label }),
  /** `reason` in the caller's language; `subDomain` as compared (trimmed, lower case). */
  answer: z.object({
    legal: z.boolean(),
    reason: z.string(),
    subDomain: z.string(),
    fullDomain: z.string().nullable(),
  }),
} satisfies RouteSchemas;

export const submitSubDomainApply = {
  query: z.object({ subDomain: label, appClientAccount: account }),
  answer: recordAnswer(subdomain_list),
} satisfies RouteSchemas;

export const checkSubDomainIsPassApproval = {
  query: z.object({ subDomain: label, appClientAccount: account }),
  answer: z.object({
    id: z.string(),
    subDomain: z.string(),
    fullDomain: z.string(),
    status: z.number().int(),
    pass: z.boolean(),
  }),
} satisfies RouteSchemas;

export const ask = {
  query: z.object({ domain: z.string().max(300).default('') }),
  answer: z.null(),
} satisfies RouteSchemas;
