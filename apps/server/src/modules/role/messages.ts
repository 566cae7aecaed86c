/** Texts of the role module (the message catalogue's per-module part). */
export const roleTexts = {
  reserved: {
    zh: '角色别名 administrator 保留给租户管理员',
    en: 'The alias administrator is reserved for the tenant administrator',
  },
  adminFixed: { zh: '租户管理员角色不能删除或改名', en: 'The tenant administrator role cannot be removed or renamed' },
  inUse: (n: number) => ({ zh: `角色仍有 ${n} 个用户在用，不能删除`, en: `The role is still held by ${n} user(s)` }),
};
