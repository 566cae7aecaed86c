import { defineResource, type Msg } from '../../resource/define.ts';

/**
 * 报表列表 (docs/reports.md): saved report definitions of a tenant over a fixed catalogue of datasets, each with its
 * parameters, its columns (a subset of the dataset's, in order) and a chart. The server runs a definition inside the
 * caller's data scope (`run`, rows as JSON) and exports it streamed (`export`, csv or xlsx).
 */

/** The columns any dataset may offer: one key, one label, and how a value is shown. */
export const REPORT_COLUMNS = {
  day: { label: { zh: '日期', en: 'Day' }, kind: 'text' },
  month: { label: { zh: '月份', en: 'Month' }, kind: 'text' },
  regionCode: { label: { zh: '区域编码', en: 'Region code' }, kind: 'text' },
  regionName: { label: { zh: '区域名称', en: 'Region' }, kind: 'text' },
  deviceType: { label: { zh: '设备类型', en: 'Device type' }, kind: 'text' },
  referType: { label: { zh: '业务类型', en: 'Type' }, kind: 'text' },
  status: { label: { zh: '状态', en: 'Status' }, kind: 'text' },
  total: { label: { zh: '总数', en: 'Total' }, kind: 'number' },
  online: { label: { zh: '在线数', en: 'Online' }, kind: 'number' },
  onlineRate: { label: { zh: '在线率(%)', en: 'Online rate (%)' }, kind: 'number' },
  count: { label: { zh: '数量', en: 'Count' }, kind: 'number' },
} as const satisfies Record<string, { label: Msg; kind: 'text' | 'number' }>;
export type ReportColumn = keyof typeof REPORT_COLUMNS;

/**
 * The dataset catalogue (domain §11 in docs/reports.md). `days`: the dataset reads rows by day, so a definition
 * names a date range of at most REPORT_MAX_DAYS days. `deviceType`: the parameter applies.
 */
export const REPORT_DATASETS = {
  device_region: {
    label: { zh: '设备按区域', en: 'Devices by region' },
    columns: ['regionCode', 'regionName', 'deviceType', 'total', 'online', 'onlineRate'],
    days: false,
    deviceType: true,
  },
  online_day: {
    label: { zh: '在线率按天', en: 'Online rate by day' },
    columns: ['day', 'regionCode', 'regionName', 'deviceType', 'total', 'online', 'onlineRate'],
    days: true,
    deviceType: true,
  },
  client_status_month: {
    label: { zh: '客户按状态和月份', en: 'Clients by status and month' },
    columns: ['month', 'status', 'count'],
    days: true,
    deviceType: false,
  },
  approval_result: {
    label: { zh: '审批按结果', en: 'Approvals by result' },
    columns: ['referType', 'status', 'count'],
    days: true,
    deviceType: false,
  },
  channel_region: {
    label: { zh: '通道按区域', en: 'Channels by region' },
    columns: ['regionCode', 'regionName', 'total'],
    days: false,
    deviceType: false,
  },
} as const satisfies Record<
  string,
  { label: Msg; columns: readonly ReportColumn[]; days: boolean; deviceType: boolean }
>;
export type ReportDataset = keyof typeof REPORT_DATASETS;
export const REPORT_DATASET_KEYS = Object.keys(REPORT_DATASETS) as ReportDataset[];

/** The longest date range a day-based dataset reads (a year, leap day included). */
export const REPORT_MAX_DAYS = 366;
/** The rows `run` shows at most (pages beyond are refused: the export has them all). */
export const REPORT_RUN_MAX_ROWS = 10_000;
export const REPORT_CHARTS = ['table', 'bar', 'line', 'pie'] as const;
export type ReportChart = (typeof REPORT_CHARTS)[number];

export const report_list = defineResource({
  code: 'report_list',
  group: 'report',
  base: '/api/blade-report/report/rest',
  label: { zh: '报表列表', en: 'Report list' },
  scope: 'tenant',
  dialogWidth: 720,
  fields: {
    name: {
      kind: 'text',
      label: { zh: '报表名称', en: 'Name' },
      required: true,
      max: 100,
      search: 'like',
      sort: true,
    },
    dataset: {
      kind: 'dict',
      dict: 'report_dataset',
      keys: 'string',
      values: [...REPORT_DATASET_KEYS],
      options: REPORT_DATASET_KEYS.map((k) => ({ value: k, label: REPORT_DATASETS[k].label })),
      label: { zh: '数据集', en: 'Dataset' },
      required: true,
      search: 'eq',
      sample: 'device_region',
    },
    regionCode: {
      kind: 'region',
      label: { zh: '区域', en: 'Region' },
      ui: { column: false },
      sample: '110101',
    },
    dateFrom: { kind: 'date', label: { zh: '开始日期', en: 'From' }, ui: { column: false }, sample: '2026-01-01' },
    dateTo: { kind: 'date', label: { zh: '结束日期', en: 'To' }, ui: { column: false }, sample: '2026-06-30' },
    deviceType: {
      kind: 'text',
      label: { zh: '设备类型', en: 'Device type' },
      max: 16,
      ui: { column: false },
      sample: 'IPC',
    },
    columns: {
      kind: 'dict',
      dict: 'report_column',
      keys: 'string',
      multiple: true,
      values: Object.keys(REPORT_COLUMNS),
      options: Object.entries(REPORT_COLUMNS).map(([value, c]) => ({ value, label: c.label })),
      label: { zh: '列', en: 'Columns' },
      ui: { column: false },
      sample: 'regionName,total',
    },
    chart: {
      kind: 'dict',
      dict: 'report_chart',
      keys: 'string',
      values: [...REPORT_CHARTS],
      options: [
        { value: 'table', label: { zh: '表格', en: 'Table' } },
        { value: 'bar', label: { zh: '柱状图', en: 'Bar' } },
        { value: 'line', label: { zh: '折线图', en: 'Line' } },
        { value: 'pie', label: { zh: '饼图', en: 'Pie' } },
      ],
      label: { zh: '图表', en: 'Chart' },
      default: 'table',
      search: 'eq',
      sample: 'bar',
    },
  },
});
