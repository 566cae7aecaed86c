/** Texts of the user module (the message catalogue's per-module part). */
export const userTexts = {
  passwordRequired: { zh: '请输入密码', en: 'Enter the password' },
  notSelf: { zh: '不能删除自己', en: 'You cannot remove yourself' },
  oldPasswordWrong: { zh: '原密码错误', en: 'The old password is wrong' },
  mismatch: { zh: '两次密码输入不一致', en: 'The two passwords do not match' },
  registered: { zh: '注册申请已提交', en: 'The application has been submitted' },
  passwordChanged: { zh: '修改成功', en: 'Password changed' },
  noTenant: { zh: '租户不存在', en: 'The tenant does not exist' },
  tenantExpired: { zh: '租户已过期', en: 'The tenant has expired' },
  regionBeyond: {
    zh: '只能把用户放到您所在区域及其下级区域',
    en: 'You can place users only in your own region or below it',
  },
  regionUnknown: { zh: '所选区域不存在', en: 'The chosen region does not exist' },
  deptBeyond: {
    zh: '只能把用户放到您所在部门及其下级部门',
    en: 'You can place users only in your own department or below it',
  },
};
