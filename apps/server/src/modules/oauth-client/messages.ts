/** Texts of the OAuth client module (the message catalogue's per-module part). */
export const clientTexts = {
  ownClient: { zh: '不能删除当前登录所用的客户端', en: 'The client of your own session cannot be removed' },
};
