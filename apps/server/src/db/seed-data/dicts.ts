// TEMPORARY placeholder until the full seed lands.
export type DictSeed = { code: string; dictValue: string; remark?: string; children: { dictKey: string; dictValue: string; sort: number; remark?: string }[] };
export const dictSeed: DictSeed[] = [{ code: 'sex', dictValue: '性别', children: [{ dictKey: '1', dictValue: '男', sort: 1 }, { dictKey: '2', dictValue: '女', sort: 2 }] }];
export const dictBizSeed: DictSeed[] = [{ code: 'client_status', dictValue: '客户状态', children: [{ dictKey: '1', dictValue: '正常', sort: 1 }] }];
