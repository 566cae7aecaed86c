// TEMPORARY placeholder until the full seed lands.
export const paramSeed: { paramName: string; paramKey: string; paramValue: string; remark?: string }[] = [
  { paramName: '密码最小长度', paramKey: 'password.minLength', paramValue: '8' },
];
