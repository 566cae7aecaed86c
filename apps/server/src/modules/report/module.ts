import { report_list as def } from '@atrium/contract/resources/report/report_list';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { reportRoutes } from './routes.ts';
import { checkDefinition, type ReportRow } from './service.ts';
import { reportTable } from './table.ts';

/** A field as saved: the body's value when sent, else the stored one. */
const merged = (input: Record<string, unknown>, existing: Record<string, unknown> | null, key: string) =>
  (input[key] !== undefined ? input[key] : existing?.[key]) as string | null | undefined;

/** 报表列表 (docs/reports.md): the definitions' CRUD from the contract, and `run` / `export`. */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(def, reportTable, {
      beforeSave: async ({ input, existing }) => {
        const ex = existing as ReportRow | null;
        const field = (k: string) => merged(input as Record<string, unknown>, ex, k) ?? null;
        checkDefinition({
          dataset: String(field('dataset') ?? ''),
          columns: field('columns'),
          dateFrom: field('dateFrom'),
          dateTo: field('dateTo'),
        });
        return {};
      },
    }),
  );
  reportRoutes(app, s);
});
