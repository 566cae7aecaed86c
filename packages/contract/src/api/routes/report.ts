import { defineRoute } from '../route.ts';
import type * as S from './report.schemas.ts';

/**
 * Reports beyond their CRUD routes (docs/reports.md): run a saved definition (a page of its rows as JSON) and export
 * it whole (csv or xlsx, streamed); schemas in report.schemas.ts. Both read inside the caller's data scope.
 */

export const run = defineRoute<typeof S.run>()({
  method: 'GET',
  path: '/api/blade-report/report/rest/run',
  auth: 'user',
  permission: 'report_list',
  summary: 'A page of a saved report’s rows (at most the first 10,000), with its columns, total and chart',
});

export const exportFile = defineRoute<typeof S.exportFile>()({
  method: 'GET',
  path: '/api/blade-report/report/rest/export',
  auth: 'user',
  permission: 'report_list',
  wire: 'stream',
  summary:
    'Every row of a saved report as csv or xlsx, streamed; the header x-report-rows says how many rows come (progress)',
});
