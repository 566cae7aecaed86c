import type { Msg } from '@atrium/contract';

/** Texts of the region module (the message catalogue's per-module part). */
export const regionTexts = {
  parentMissing: { zh: '上级区划不存在', en: 'The parent region does not exist' },
  topLevel: { zh: '省级区划编号应为 2 位数字', en: 'A province code has 2 digits' },
  childCode: {
    zh: '区划编号应以上级编号 {parent} 开头，共 {digits} 位数字',
    en: 'The code must start with the parent code {parent} and have {digits} digits',
  },
  hasChildren: { zh: '请先删除下级区划', en: 'Remove its sub-regions first' },
  tooMany: { zh: '请求过于频繁，请稍后再试', en: 'Too many requests; try again later' },
  inUse: { zh: '区划 {name} 正在使用中，不能删除', en: 'Region {name} is in use and cannot be removed' },
  /** A region still some user's region (any tenant: the answer names no tenant and no user). */
  usedByUsers: {
    zh: '区划 {name} 仍是用户的所属区域，请先修改这些用户的区域',
    en: "Region {name} is still a user's region; change those users' region first",
  },
  /** A region still some client's region (any tenant). */
  usedByClients: {
    zh: '区划 {name} 仍是客户的所在区域，请先修改这些客户的区域',
    en: "Region {name} is still a client's region; change those clients' region first",
  },
  codeOrId: { zh: '请指定区划编号或编号', en: 'Name the region by code or id' },
  codesRequired: { zh: '请指定区划编号（以逗号分隔）', en: 'Name the region codes (a comma list)' },
  tooManyCodes: { zh: '一次最多查询 {max} 个区划编号', en: 'At most {max} region codes at once' },
  noFile: { zh: '请选择要导入的 xlsx 文件', en: 'Choose an xlsx file to import' },
  notXlsx: { zh: '文件不是有效的 xlsx 表格', en: 'The file is not a valid xlsx workbook' },
  noHeader: {
    zh: '第一行应为表头，且至少包含区划编号和区划名称两列',
    en: 'The first row must be the header, with at least the code and name columns',
  },
  tooManyRows: { zh: '一次最多导入 {max} 行', en: 'At most {max} rows can be imported at once' },
  exportTooLarge: {
    zh: '一次最多导出 {max} 行，请选择较小的区划范围',
    en: 'At most {max} rows can be exported at once; pick a smaller region',
  },
  duplicate: {
    zh: '区划编号在文件中重复（第 {row} 行已有）',
    en: 'The code appears twice in the file (also row {row})',
  },
  parentMismatch: {
    zh: '上级编号应为 {parent}',
    en: 'The parent code must be {parent}',
  },
  badSort: { zh: '排序应为 0 到 999999 的整数', en: 'The sort order is a whole number from 0 to 999999' },
  nameRequired: { zh: '请输入区划名称', en: 'Enter the region name' },
  nameTooLong: { zh: '区划名称最多 100 个字符', en: 'The name has at most 100 characters' },
  remarkTooLong: { zh: '备注最多 255 个字符', en: 'The remark has at most 255 characters' },
  importRefused: {
    zh: '导入未执行：{count} 行有错误，请修改后重新导入',
    en: 'Nothing was imported: {count} rows have errors; correct them and import again',
  },
  imported: {
    zh: '导入完成：新增 {inserted} 条，更新 {updated} 条',
    en: 'Imported: {inserted} added, {updated} updated',
  },
  sheetName: { zh: '行政区划', en: 'Regions' },
} satisfies Record<string, Msg>;
