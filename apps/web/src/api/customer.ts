import type { AxiosRequestConfig } from 'axios';
import { clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { approval } from '@atrium/contract/resources/customer/approval';
import { region } from '@atrium/contract/resources/system/region';
import { errorOf, type FieldError } from './crud';
import { get, post } from './http';
import type { RegionNode } from './region';
import type { PutFileResult } from './resource';

/**
 * The client and approval calls beyond the CRUD ones (docs/clients.md). The public ones (registration, status,
 * forgotten password) carry the tenant as `Tenant-Id`, never a token, and answer their refusals to the page (no
 * toast): the page shows the server's message where the user is looking.
 */

const CLIENT = clientinfo.base;
const APPROVAL = approval.base;

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

export type PhoneState = 'free' | 'registered' | 'blocked';
export type ReviewState = 'none' | 'pending' | 'approved' | 'rejected';
/** 1 register, 2 reset password. */
export type CodeType = 1 | 2;

export const publicClient = {
  verify: (tenantId: string, operatorTel: string) =>
    publicCall(() => get<{ state: PhoneState }>(`${CLIENT}/verify`, { operatorTel }, publicConfig(tenantId))),
  sendCode: (tenantId: string, operatorTel: string, type: CodeType) =>
    publicCall(() =>
      get<boolean>(
        `${CLIENT}/verification`,
        { operatorTel, type, userAgent: navigator.userAgent },
        publicConfig(tenantId),
      ),
    ),
  checkCode: (tenantId: string, operatorTel: string, type: CodeType, verificationCode: string) =>
    publicCall(() =>
      get<{ ticket: string }>(
        `${CLIENT}/verificat`,
        { operatorTel, type, verificationCode, userAgent: navigator.userAgent },
        publicConfig(tenantId),
      ),
    ),
  register: (tenantId: string, body: Record<string, unknown>) =>
    publicCall(() => post<boolean>(`${CLIENT}/register`, body, publicConfig(tenantId))),
  reviewed: (tenantId: string, operatorTel: string) =>
    publicCall(() => get<{ status: ReviewState }>(`${CLIENT}/reviewed`, { operatorTel }, publicConfig(tenantId))),
  resetPassword: (tenantId: string, body: { operatorTel: string; ticket: string; password: string }) =>
    publicCall(() => post<boolean>(`${CLIENT}/resetPassword`, body, publicConfig(tenantId))),
  /** The licence image, without a login: the registration's own upload (images only, rate-limited). */
  upload: (tenantId: string, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return publicCall(() =>
      post<Pick<PutFileResult, 'link' | 'attachId'>>(`${CLIENT}/licence`, form, publicConfig(tenantId)),
    );
  },
  /** One level of the region tree, without a login (the server may require one: then a PublicError of 401). */
  regionLevel: (tenantId: string, parentCode: string) =>
    publicCall(() => get<RegionNode[]>(`${region.base}/lazy-tree`, { parentCode }, publicConfig(tenantId))),
};

export type TrackRecord = {
  id: string;
  clientId: string;
  /** 1 call, 2 visit, 3 email, 4 message. */
  trackType: number;
  content: string;
  trackTime: string;
  nextTrackTime?: string | null;
  trackerName?: string | null;
  outboxId?: string | null;
  /** The email's delivery state: 1 queued, 2 sent, 3 failed (docs/outbox.md). */
  emailStatus?: number | null;
  emailError?: string | null;
};

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
  tracks: (clientId: string) => get<TrackRecord[]>(`${CLIENT}/clientTrackRecord`, { clientId }),
  addTrack: (body: {
    clientId: string;
    trackType: number;
    content: string;
    trackTime?: string;
    nextTrackTime?: string | null;
  }) => post<{ id: string }>(`${CLIENT}/customerTrack`, body),
  /** The decision on the pending reviews of these clients. */
  approve: (ids: string[], pass: boolean, opinion?: string) =>
    post<boolean>(`${CLIENT}/approve`, { ids, pass, opinion }),
  /** POST with a JSON body: a password never lands in an access log. */
  setPassword: (clientInfoId: string, pwd: string) =>
    post<boolean>(`${CLIENT}/updatePwd`, { clientInfoId, pwd }, { meta: { whitelist: [400] } }),
  sendEmail: (body: { clientIds: string[]; subject: string; content: string; attachIds?: string[] }) =>
    post<{ clientId: string; outboxId: string }[]>(`${CLIENT}/sendEmail`, body),
};

export const approvalApi = {
  /** One business object's history, oldest first; refusals (no permission) are the caller's to show. */
  history: (referId: string) =>
    get<ApprovalRecord[]>(`${APPROVAL}/approvalDetail`, { referId }, { meta: { whitelist: [403, 404] } }),
  /** 1 approve, 2 reject (an opinion is then required). A decided one answers 409, shown by the dialog. */
  decide: (id: string, status: 1 | 2, opinion?: string) =>
    post<boolean>(`${APPROVAL}/businessApproval`, { id, status, opinion }, { meta: { whitelist: [409] } }),
};

/** The server's message of a refused call, when it sent one. */
export function messageOf(err: unknown): string {
  const msg = (err as { response?: { data?: { msg?: unknown } } }).response?.data?.msg;
  return typeof msg === 'string' ? msg : '';
}
