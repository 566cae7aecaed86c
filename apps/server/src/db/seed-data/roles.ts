/** Roles of docs/system-api.md "Seed" (the platform administrator and the product roles of docs/product.md "Roles and permissions"), a department tree and posts. */
export const roleSeed = [
  { roleName: '超级管理员', roleAlias: 'administrator', sort: 1 },
  { roleName: '供应商管理员', roleAlias: 'supplier_admin', sort: 2 },
  { roleName: '区域管理员', roleAlias: 'region_admin', sort: 3 },
  { roleName: '城市管理员', roleAlias: 'city_admin', sort: 4 },
  { roleName: '领导', roleAlias: 'leader_admin', sort: 5 },
];
export const deptSeed: { deptName: string; fullName?: string; parent?: string; sort: number; deptCategory?: number }[] =
  [
    { deptName: 'Atrium', fullName: 'Atrium 城市运营中心', sort: 1, deptCategory: 1 },
    { deptName: '技术部', parent: 'Atrium', sort: 1, deptCategory: 2 },
    { deptName: '运营部', parent: 'Atrium', sort: 2, deptCategory: 2 },
  ];
export const postSeed = [
  { category: 1, postCode: 'ceo', postName: '首席执行官', sort: 1 },
  { category: 2, postCode: 'manager', postName: '经理', sort: 2 },
  { category: 3, postCode: 'staff', postName: '职员', sort: 3 },
];
