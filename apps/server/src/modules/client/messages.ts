import { apiTexts } from '@atrium/contract/schemas';

/** Texts of the client module (the message catalogue's per-module part). */
export const clientTexts = {
  regionUnknown: { zh: '所选区域不存在', en: 'The chosen region does not exist' },
  outsideScope: {
    zh: '只能登记本人数据范围（本区域及下级区域）内的客户',
    en: 'Clients can only be entered within your own data scope (your region and below)',
  },
  noTenant: { zh: '租户不存在', en: 'The tenant does not exist' },
  cannotSend: {
    zh: '当前无法向该号码发送验证码',
    en: 'A code cannot be sent to this number now',
  },
  alreadyRegistered: { zh: '该手机号已注册', en: 'This mobile number is already registered' },
  notRegistered: { zh: '该手机号没有已通过的客户账号', en: 'No approved client account has this mobile number' },
  tooSoon: { zh: '发送太频繁，请 {seconds} 秒后再试', en: 'Too frequent; try again in {seconds} s' },
  dailyLimit: { zh: '该号码今日获取验证码次数已达上限', en: 'This number has had its codes for today' },
  ipLimit: { zh: '请求过于频繁，请稍后再试', en: 'Too many requests; try again later' },
  codeSent: { zh: '验证码已发送', en: 'The code has been sent' },
  codeWrong: { zh: '验证码错误', en: 'The code is wrong' },
  codeGone: { zh: '验证码已失效，请重新获取', en: 'The code is no longer valid; ask for a new one' },
  ticketBad: apiTexts.ticketBad,
  registered: {
    zh: '注册申请已提交,请耐心等待管理员通过!',
    en: 'Your application has been submitted; please wait for approval',
  },
  passwordReset: { zh: '密码已重置，请使用新密码登录', en: 'The password is reset; sign in with the new one' },
  passwordChanged: { zh: '修改成功', en: 'Password changed' },
  licenceUploaded: { zh: '上传成功', en: 'Uploaded' },
  inUse: { zh: '该客户{what}，不能删除', en: 'This client {what} and cannot be removed' },
  noRole: {
    zh: '租户缺少供应商管理员角色，无法创建客户账号',
    en: 'The tenant has no supplier admin role; the client account cannot be made',
  },
  accountTaken: {
    zh: '账号 {account} 已被占用，请修改客户账号后再审批',
    en: 'Account {account} is taken; change the client account first',
  },
  noAccount: { zh: '该客户还没有账号', en: 'This client has no account yet' },
  chooseClients: apiTexts.chooseClients,
  noEmail: { zh: '客户 {name} 没有邮箱', en: 'Client {name} has no email address' },
  emailQueued: { zh: '已加入发送队列', en: 'Queued for sending' },
  notPending: { zh: '只有待审核的客户可以审核', en: 'Only clients pending review can be decided' },
  smsApproved: {
    zh: '【{tenant}】您的客户注册已通过审核，登录账号：{account}。',
    en: '[{tenant}] Your client registration is approved. Account: {account}.',
  },
  smsApprovedSetPassword: {
    zh: '【{tenant}】您的客户资料已通过审核，登录账号：{account}，请在登录页通过“忘记密码”设置密码。',
    en: '[{tenant}] Your client record is approved. Account: {account}. Set your password with "Forgot password" on the sign-in page.',
  },
  smsRejected: {
    zh: '【{tenant}】您的客户注册未通过审核，原因：{opinion}',
    en: '[{tenant}] Your client registration was not approved: {opinion}',
  },
  smsCode: {
    zh: '【{tenant}】您的验证码为 {code}，5 分钟内有效，请勿告诉他人。',
    en: '[{tenant}] Your code is {code}, valid for 5 minutes. Do not share it.',
  },
  emailFooter: { zh: '此邮件由系统发送', en: 'Sent by the system' },
};
