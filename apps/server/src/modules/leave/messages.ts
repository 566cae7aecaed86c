/** Texts of the leave module (docs/workflow.md "The leave process"). */
export const leaveTexts = {
  leaveMissing: { zh: '请假单不存在', en: 'The leave request does not exist' },
  notLeaveProcess: {
    zh: '该流程不是请假流程，请从“发起事务”选择请假流程',
    en: 'This process is not the leave process; pick the leave process under Start',
  },
  badStartTime: {
    zh: '开始时间格式不正确，应为 yyyy-MM-dd HH:mm:ss',
    en: 'The start time is not a valid time (yyyy-MM-dd HH:mm:ss)',
  },
  badEndTime: {
    zh: '结束时间格式不正确，应为 yyyy-MM-dd HH:mm:ss',
    en: 'The end time is not a valid time (yyyy-MM-dd HH:mm:ss)',
  },
  endBeforeStart: { zh: '结束时间必须晚于开始时间', en: 'The end time must be after the start time' },
  tooLong: { zh: '请假时长不能超过一年', en: 'A leave lasts at most one year' },
  badCategory: {
    zh: '请假类型“{value}”不存在，请从请假类型字典中选择',
    en: 'The leave type "{value}" does not exist; pick one of the leave type dictionary',
  },
  reasonRequired: { zh: '请填写请假理由', en: 'Enter the reason for the leave' },
  reasonTooLong: { zh: '请假理由不能超过500个字符', en: 'The reason must be at most 500 characters' },
  badApprover: {
    zh: '审批人不是本租户的有效用户，请重新选择',
    en: 'The approver is not an active user of this tenant; pick another',
  },
  selfApprover: { zh: '不能选择自己作为审批人', en: 'You cannot be your own approver' },
  /** The leave type dictionary's name. */
  leaveTypeDict: { zh: '请假类型', en: 'Leave type' },
} as const;
