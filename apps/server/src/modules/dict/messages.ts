/** Texts of the dictionary module (the field and tree-rule texts are in the definitions). */
export const dictTexts = {
  keyRequired: { zh: '请输入字典键值', en: 'Enter the dictionary key' },
  sealed: { zh: '字典已封存，不能修改或删除', en: 'The dictionary entry is sealed: it cannot be changed or removed' },
};
