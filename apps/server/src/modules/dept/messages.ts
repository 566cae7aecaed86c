/** Texts of the department module (the tree rules' texts are in the definition). */
export const deptTexts = {
  hasUsers: (n: number) => ({ zh: `机构下仍有 ${n} 个用户，不能删除`, en: `The department still has ${n} user(s)` }),
};
