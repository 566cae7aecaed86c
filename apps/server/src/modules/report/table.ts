import { sql } from 'drizzle-orm';
import { date, index, varchar } from 'drizzle-orm/pg-core';
import { tenantTable } from '../../db/schema/tables.ts';

/**
 * 报表 (docs/reports.md): a saved definition — dataset of the catalogue, parameters, columns (a comma list, in order)
 * and chart. The rows it shows are read from the dataset's own tables when it runs.
 */
export const reportTable = tenantTable(
  'report',
  {
    name: varchar('name', { length: 100 }).notNull(),
    dataset: varchar('dataset', { length: 32 }).notNull(),
    regionCode: varchar('region_code', { length: 12 }),
    dateFrom: date('date_from', { mode: 'string' }),
    dateTo: date('date_to', { mode: 'string' }),
    deviceType: varchar('device_type', { length: 16 }),
    columns: varchar('columns', { length: 500 }),
    chart: varchar('chart', { length: 16 }).notNull().default('table'),
  },
  (t) => [
    index('report_list_idx')
      .on(t.tenantId, t.createTime.desc(), t.id)
      .where(sql`is_deleted = 0`),
  ],
);
