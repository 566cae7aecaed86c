/** Texts of the top menu module (the message catalogue's per-module part). */
export const topmenuTexts = {
  chooseTopMenu: { zh: '请选择顶部菜单', en: 'Select the top menus' },
  granted: { zh: '配置成功', en: 'Settings saved' },
};
