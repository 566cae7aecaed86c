import type { Msg } from '@atrium/contract';

/** Texts of the report module (the message catalogue's per-module part). */
export const reportTexts = {
  /** `{list}`: the dataset's columns. */
  badColumns: {
    zh: '所选的列不属于该数据集，可选：{list}',
    en: 'A chosen column is not in this dataset; its columns: {list}',
  },
  /** `{days}`: the longest range. */
  needRange: {
    zh: '该数据集按天读取，请选择开始日期和结束日期（不超过 {days} 天）',
    en: 'This dataset is read by day: choose a start and an end date (at most {days} days)',
  },
  rangeOrder: { zh: '结束日期不能早于开始日期', en: 'The end date cannot be before the start date' },
  /** `{days}`: the longest range. */
  rangeTooLong: {
    zh: '日期范围不能超过 {days} 天',
    en: 'The date range cannot be longer than {days} days',
  },
  /** `{max}`: the rows shown. */
  tooManyRows: {
    zh: '在线查看最多显示 {max} 行，更多数据请导出',
    en: 'At most {max} rows are shown here; export the report for the rest',
  },
  badFormat: { zh: '导出格式只能是 csv 或 xlsx', en: 'The export format is csv or xlsx' },
  sheetName: { zh: '报表', en: 'Report' },
  /** Region names shown for rows without a region. */
  noRegion: { zh: '（无区域）', en: '(no region)' },
} satisfies Record<string, Msg>;
