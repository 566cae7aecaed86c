/** Texts of the top menu module (the message catalogue's per-module part). */
export const topmenuTexts = {
  granted: { zh: '配置成功', en: 'Settings saved' },
};
