import { lazy, Suspense, useState } from 'react';
import { BarChartOutlined } from '@ant-design/icons';
import { report_list } from '@atrium/contract/resources/report/report_list';
import ResourcePage, { type ResourceHooks } from '../../components/crud/ResourcePage';
import type { RecordOf } from '../../components/crud/fromDefinition';
import i18n from '../../i18n';
import { reportViewTexts } from './messages';

/**
 * 报表列表 (docs/reports.md "Screen"): the definitions' screen from the contract (list, the definition dialog with
 * dataset, parameters, columns and chart), plus 运行 — the viewer with the chart, the rows and the downloads.
 */

i18n.addResourceBundle('zh', 'translation', { reportView: reportViewTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { reportView: reportViewTexts.en }, true, false);

const ReportViewer = lazy(() => import('./ReportViewer'));

type Rec = RecordOf<typeof report_list.fields>;

export default function ReportListPage() {
  const [open, setOpen] = useState<Rec | null>(null);
  const [hooks] = useState<ResourceHooks<Rec>>(() => ({
    schema: (derived) => ({
      ...derived,
      rowActions: [
        {
          // No button code: whoever sees the screen holds its menu code, which run and export ask for.
          label: 'reportView.open',
          icon: <BarChartOutlined />,
          onClick: (rows) => setOpen(rows[0]),
        },
        ...(derived.rowActions ?? []),
      ],
    }),
  }));
  return (
    <>
      <ResourcePage def={report_list} hooks={hooks} />
      {open && (
        <Suspense fallback={null}>
          <ReportViewer id={String(open.id)} name={String(open.name ?? '')} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </>
  );
}
