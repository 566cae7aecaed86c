import { defineRoute } from '../route.ts';
import type * as S from './business.schemas.ts';

/**
 * The business calls beyond the CRUD ones (docs/clients.md, docs/subdomains.md): clients (the staff screens' calls
 * and the public registration page), approvals and sub-domains; schemas in business.schemas.ts.
 */

const CLIENT = '/api/blade-business/clientInfo';
const APPROVAL = '/api/blade-business/approval';
const SUBDOMAIN = '/api/blade-business/subDomain';

// ——— Clients: the staff screens (docs/clients.md) ———

export const clientInfoVerify = defineRoute<typeof S.clientInfoVerify>()({
  method: 'GET',
  path: `${CLIENT}/clientInfoVerify`,
  auth: 'user',
  permission: 'clientinfo',
  summary: 'The review queue: clients waiting for a decision, in the caller’s data scope',
});

export const clientInfoManageList = defineRoute<typeof S.clientInfoManageList>()({
  method: 'GET',
  path: `${CLIENT}/clientInfoManageList`,
  auth: 'user',
  permission: 'clientinfo',
  summary: 'Clients in the caller’s regions (the data scope), as the page',
});

export const clientList = defineRoute<typeof S.clientList>()({
  method: 'GET',
  path: `${CLIENT}/clientList`,
  auth: 'user',
  permission: ['clientinfo', 'subdomain_list', 'cameradevice'],
  summary: 'Id, name and region of approved clients (at most 200), for pickers',
});

export const delClientInfo = defineRoute<typeof S.delClientInfo>()({
  method: 'POST',
  path: `${CLIENT}/delclientInfo`,
  auth: 'user',
  permission: 'clientinfo_delete',
  summary: 'Removes one client by its id (the same rules as remove)',
});

export const approveClients = defineRoute<typeof S.approveClients>()({
  method: 'POST',
  path: `${CLIENT}/approve`,
  auth: 'user',
  permission: ['clientinfo_approve', 'approval_approve'],
  summary: 'Decides the pending reviews of clients (ids in the body or the query)',
});

export const updatePwd = defineRoute<typeof S.updatePwd>()({
  method: 'POST',
  path: `${CLIENT}/updatePwd`,
  auth: 'user',
  permission: 'clientinfo_edit',
  summary: 'A new password of a client’s account (a JSON body: never in an access log)',
});

export const sendEmail = defineRoute<typeof S.sendEmail>()({
  method: 'POST',
  path: `${CLIENT}/sendEmail`,
  auth: 'user',
  permission: 'clientinfo_email',
  summary: 'One queued email per client, with a follow-up record each',
});

export const customerTrack = defineRoute<typeof S.customerTrack>()({
  method: 'POST',
  path: `${CLIENT}/customerTrack`,
  auth: 'user',
  permission: ['clienttrack_add', 'clientinfo_edit'],
  summary: 'A follow-up record of a client',
});

export const clientTrackRecord = defineRoute<typeof S.clientTrackRecord>()({
  method: 'GET',
  path: `${CLIENT}/clientTrackRecord`,
  auth: 'user',
  permission: ['clientinfo', 'clienttrack'],
  summary: 'A client’s follow-ups, newest first, an email’s with its delivery state',
});

// ——— Clients: the public registration page (docs/clients.md "Registration"), the tenant from Tenant-Id or the host ———

export const verify = defineRoute<typeof S.verify>()({
  method: 'GET',
  path: `${CLIENT}/verify`,
  auth: 'none',
  summary: 'Whether a phone can register: free, registered or blocked',
});

export const verification = defineRoute<typeof S.verification>()({
  method: 'GET',
  path: `${CLIENT}/verification`,
  auth: 'none',
  summary: 'Sends a 6-digit code by SMS (1 register, 2 reset password); the send limits answer 429',
});

export const verificat = defineRoute<typeof S.verificat>()({
  method: 'GET',
  path: `${CLIENT}/verificat`,
  auth: 'none',
  summary: 'Checks a code: right → a one-use ticket (15 minutes)',
});

export const register = defineRoute<typeof S.register>()({
  method: 'POST',
  path: `${CLIENT}/register`,
  auth: 'none',
  summary: 'The registration: the client’s form and the ticket of a type-1 code → a client pending review',
});

export const licence = defineRoute<typeof S.licence>()({
  method: 'POST',
  path: `${CLIENT}/licence`,
  auth: 'none',
  bodyType: 'multipart',
  summary: 'The licence image of a registration (jpg, png, webp; at most 5 MB)',
});

export const reviewed = defineRoute<typeof S.reviewed>()({
  method: 'GET',
  path: `${CLIENT}/reviewed`,
  auth: 'none',
  summary: 'The review state of a phone’s latest application — no personal data',
});

export const resetPassword = defineRoute<typeof S.resetPassword>()({
  method: 'POST',
  path: `${CLIENT}/resetPassword`,
  auth: 'none',
  summary: 'A client sets a new password with the ticket of a type-2 code ("forgot password")',
});

// ——— Approvals (docs/clients.md "Approvals") ———

export const approvalPage = defineRoute<typeof S.approvalPage>()({
  method: 'GET',
  path: `${APPROVAL}/approvalPage`,
  auth: 'user',
  permission: 'approval_approve',
  summary: 'The pending applications the caller may decide (the approve code and their data scope)',
});

export const approvalDetail = defineRoute<typeof S.approvalDetail>()({
  method: 'GET',
  path: `${APPROVAL}/approvalDetail`,
  auth: 'user',
  permission: 'approval',
  summary: 'The whole history of one business object, oldest first',
});

export const businessApproval = defineRoute<typeof S.businessApproval>()({
  method: 'POST',
  path: `${APPROVAL}/businessApproval`,
  auth: 'user',
  permission: 'approval_approve',
  summary: 'One decision: 1 approve, 2 reject (an opinion is then required)',
});

// ——— Sub-domains (docs/subdomains.md) ———

export const checkSubDomainLegal = defineRoute<typeof S.checkSubDomainLegal>()({
  method: 'GET',
  path: `${SUBDOMAIN}/checkSubDomainLegal`,
  auth: 'user',
  permission: 'subdomain_list',
  summary: 'Whether a name may be applied for, and why not (in the caller’s language)',
});

export const submitSubDomainApply = defineRoute<typeof S.submitSubDomainApply>()({
  method: 'GET',
  path: `${SUBDOMAIN}/submitSubDomainApply`,
  auth: 'user',
  permission: 'subdomain_list_add',
  summary: 'An application for a sub-domain: state 0 and a pending approval',
});

export const checkSubDomainIsPassApproval = defineRoute<typeof S.checkSubDomainIsPassApproval>()({
  method: 'GET',
  path: `${SUBDOMAIN}/checkSubDomainIsPassApproval`,
  auth: 'user',
  permission: 'subdomain_list',
  summary: 'The state of the latest application of a name',
});

export const ask = defineRoute<typeof S.ask>()({
  method: 'GET',
  path: `${SUBDOMAIN}/ask`,
  auth: 'none',
  summary: 'The edge proxy’s question before it issues a certificate: 200 for a running sub-domain, else 404',
});
