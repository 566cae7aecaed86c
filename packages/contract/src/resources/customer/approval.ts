import { defineResource } from '../../resource/define.ts';

/** What an approval decides: a client's registration or a sub-domain application (docs/clients.md "Approvals"). */
export const APPROVAL_REFER_TYPES = ['client', 'subdomain'] as const;
export const APPROVAL_STATUS = { pending: 0, approved: 1, rejected: 2, withdrawn: 3 } as const;

/**
 * 客户审批: one record per application; opened by the business (a registration, a sub-domain application), decided
 * by `businessApproval` (or a client's `approve`) in the same transaction as its effect. Submit changes the remark
 * only.
 */
export const approval = defineResource({
  code: 'approval',
  group: 'customer',
  base: '/api/blade-business/approval',
  label: { zh: '客户审批', en: 'Approvals' },
  scope: 'tenant',
  dataScope: true,
  create: false,
  fields: {
    referType: {
      kind: 'dict',
      dict: 'approval_refer_type',
      keys: 'string',
      values: [...APPROVAL_REFER_TYPES],
      options: [
        { value: 'client', label: { zh: '客户注册', en: 'Client registration' } },
        { value: 'subdomain', label: { zh: '子域名申请', en: 'Sub-domain application' } },
      ],
      label: { zh: '业务类型', en: 'Type' },
      readOnly: true,
      search: 'eq',
    },
    referId: { kind: 'text', label: { zh: '业务编号', en: 'Business id' }, readOnly: true },
    title: { kind: 'text', label: { zh: '标题', en: 'Title' }, readOnly: true, search: 'like' },
    applicantName: { kind: 'text', label: { zh: '申请人', en: 'Applicant' }, readOnly: true, search: 'like' },
    applicantPhone: { kind: 'text', label: { zh: '申请人电话', en: 'Applicant phone' }, readOnly: true, search: 'eq' },
    regionCode: { kind: 'region', label: { zh: '所属区域', en: 'Region' }, readOnly: true, search: 'eq' },
    status: {
      kind: 'dict',
      dict: 'approval_status',
      keys: 'int',
      values: [0, 1, 2, 3],
      options: [
        { value: 0, label: { zh: '待审批', en: 'Pending' } },
        { value: 1, label: { zh: '已通过', en: 'Approved' } },
        { value: 2, label: { zh: '已驳回', en: 'Rejected' } },
        { value: 3, label: { zh: '已撤回', en: 'Withdrawn' } },
      ],
      label: { zh: '审批状态', en: 'Status' },
      readOnly: true,
      search: 'in',
      sort: true,
    },
    submitTime: {
      kind: 'datetime',
      label: { zh: '提交时间', en: 'Submitted' },
      readOnly: true,
      search: 'range',
      sort: true,
    },
    approverName: { kind: 'text', label: { zh: '审批人', en: 'Approver' }, readOnly: true },
    approveTime: { kind: 'datetime', label: { zh: '审批时间', en: 'Decided' }, readOnly: true, sort: true },
    opinion: { kind: 'textarea', label: { zh: '审批意见', en: 'Opinion' }, readOnly: true },
    remark: { kind: 'textarea', max: 500, label: { zh: '备注', en: 'Remark' }, ui: { column: false } },
  },
});
