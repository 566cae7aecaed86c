/** Texts of the approval module (the message catalogue's per-module part). */
export const approvalTexts = {
  notPending: { zh: '该申请已处理，不能再次审批', en: 'This application has already been decided' },
  alreadyPending: { zh: '已有待审批的申请，请等待审批结果', en: 'An application is already waiting for a decision' },
  ownApplication: {
    zh: '不能审批自己提交的申请，请由其他有审批权限的人员处理',
    en: 'You cannot decide an application you submitted yourself; another approver must decide it',
  },
  opinionRequired: { zh: '驳回时请填写审批意见', en: 'Give an opinion when rejecting' },
  pendingNoRemove: {
    zh: '待审批的申请不能删除，请先审批',
    en: 'A pending application cannot be removed; decide it first',
  },
  approved: { zh: '审批通过', en: 'Approved' },
  rejected: { zh: '已驳回', en: 'Rejected' },
  noEffect: { zh: '未知的业务类型', en: 'Unknown business type' },
};
