/** Texts of the user module (the message catalogue's per-module part). */
export const userTexts = {
  passwordRequired: { zh: '请输入密码', en: 'Enter the password' },
  notSelf: { zh: '不能删除自己', en: 'You cannot remove yourself' },
};
