import type { AxiosRequestConfig } from 'axios';
import { business, type AnswerOf, type BodyOf } from '@atrium/contract';
import { region } from '@atrium/contract/resources/system/region';
import { errorOf, type FieldError } from './crud';
import { call } from './call';
import { get } from './http';
import type { RegionNode } from './region';

/**
 * The client and approval calls beyond the CRUD ones (docs/clients.md). The public ones (registration, status,
 * forgotten password) carry the tenant as `Tenant-Id`, never a token, and answer their refusals to the page (no
 * toast): the page shows the server's message where the user is looking.
 */

/** A refusal of a public call: the server's message, its status, its field errors. */
export class PublicError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly fields: FieldError[],
  ) {
    super(message);
  }
}

const publicConfig = (tenantId: string): AxiosRequestConfig => ({
  headers: { 'Tenant-Id': tenantId },
  // Refusals come back to the page; 401 (a call that needs a login) must not log anyone out.
  meta: { isToken: false, whitelist: [400, 401, 403, 404, 409, 429, 500] },
});

async function publicCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const { status, fields } = errorOf(err);
    const body = (err as { response?: { data?: { msg?: unknown } } }).response?.data;
    const msg = typeof body?.msg === 'string' ? body.msg : '';
    throw new PublicError(msg, status, fields);
  }
}

export type PhoneState = AnswerOf<typeof business.verify>['state'];
export type ReviewState = AnswerOf<typeof business.reviewed>['status'];
/** The registration's body: the client's form, the chosen password and the ticket. */
type RegisterBody = BodyOf<typeof business.register>;
/** 1 register, 2 reset password. */
export type CodeType = 1 | 2;

export const publicClient = {
  verify: (tenantId: string, operatorTel: string) =>
    publicCall(() => call(business.verify, { query: { operatorTel } }, publicConfig(tenantId))),
  sendCode: (tenantId: string, operatorTel: string, type: CodeType) =>
    publicCall(() =>
      call(
        business.verification,
        { query: { operatorTel, type, userAgent: navigator.userAgent } },
        publicConfig(tenantId),
      ),
    ),
  checkCode: (tenantId: string, operatorTel: string, type: CodeType, verificationCode: string) =>
    publicCall(() =>
      call(
        business.verificat,
        { query: { operatorTel, type, verificationCode, userAgent: navigator.userAgent } },
        publicConfig(tenantId),
      ),
    ),
  register: (tenantId: string, body: RegisterBody) =>
    publicCall(() => call(business.register, { body }, publicConfig(tenantId))),
  reviewed: (tenantId: string, operatorTel: string) =>
    publicCall(() => call(business.reviewed, { query: { operatorTel } }, publicConfig(tenantId))),
  resetPassword: (tenantId: string, body: { operatorTel: string; ticket: string; password: string }) =>
    publicCall(() => call(business.resetPassword, { body }, publicConfig(tenantId))),
  /** The licence image, without a login: the registration's own upload (images only, rate-limited). */
  upload: (tenantId: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return publicCall(() => call(business.licence, { body: form }, publicConfig(tenantId)));
  },
  /** One level of the region tree, without a login (the server may require one: then a PublicError of 401). */
  regionLevel: (tenantId: string, parentCode: string) =>
    publicCall(() => get<RegionNode[]>(`${region.base}/lazy-tree`, { parentCode }, publicConfig(tenantId))),
};

/** A client's follow-up (`clientTrackRecord`): 1 call, 2 visit, 3 email, 4 message; an email's delivery state. */
export type TrackRecord = AnswerOf<typeof business.clientTrackRecord>[number];
/** One application of a business object's history (`approvalDetail`: the approval definition's record). */
export type ApprovalRecord = {
  id: string;
  referType: string;
  referId: string;
  title?: string;
  applicantName?: string | null;
  applicantPhone?: string | null;
  status: number;
  submitTime?: string | null;
  approverName?: string | null;
  approveTime?: string | null;
  opinion?: string | null;
  version?: number;
};

export const clientApi = {
  tracks: (clientId: string) => call(business.clientTrackRecord, { query: { clientId } }),
  addTrack: (body: BodyOf<typeof business.customerTrack>) => call(business.customerTrack, { body }),
  /** The decision on the pending reviews of these clients. */
  approve: (ids: string[], pass: boolean, opinion?: string) =>
    call(business.approveClients, { body: { ids, pass, opinion } }),
  /** POST with a JSON body: a password never lands in an access log. */
  setPassword: (clientInfoId: string, pwd: string) =>
    call(business.updatePwd, { body: { clientInfoId, pwd } }, { meta: { whitelist: [400] } }),
  sendEmail: (body: BodyOf<typeof business.sendEmail>) => call(business.sendEmail, { body }),
};

export const approvalApi = {
  /** One business object's history, oldest first; refusals (no permission) are the caller's to show. */
  history: async (referId: string) =>
    (await call(
      business.approvalDetail,
      { query: { referId } },
      { meta: { whitelist: [403, 404] } },
    )) as ApprovalRecord[],
  /** 1 approve, 2 reject (an opinion is then required). A decided one answers 409, shown by the dialog. */
  decide: (id: string, status: 1 | 2, opinion?: string) =>
    call(business.businessApproval, { body: { id, status, opinion } }, { meta: { whitelist: [409] } }),
};

/** The server's message of a refused call, when it sent one. */
export function messageOf(err: unknown): string {
  const msg = (err as { response?: { data?: { msg?: unknown } } }).response?.data?.msg;
  return typeof msg === 'string' ? msg : '';
}
