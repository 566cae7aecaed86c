// TEMPORARY placeholder until the full seed lands.
export const roleSeed = [{ roleName: '超级管理员', roleAlias: 'administrator', sort: 1 }];
export const deptSeed: { deptName: string; fullName?: string; parent?: string; sort: number; deptCategory?: number }[] = [{ deptName: 'Atrium', sort: 1 }];
export const postSeed = [{ category: 1, postCode: 'ceo', postName: '总经理', sort: 1 }];
