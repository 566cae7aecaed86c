import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Drawer, Empty, Progress, Space, Table, Typography } from 'antd';
import { DownloadOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { EChartsCoreOption } from 'echarts/core';
import { REPORT_RUN_MAX_ROWS } from '@atrium/contract/resources/report/report_list';
import { notify } from '../../app/notify';
import StatsChart from '../video/stats/StatsChart';
import { refusalOf, saveBlob, sizeText } from '../../api/download';
import { exportReport, runReport, type ReportRun } from './api';

/** At most this many points are drawn (the page's first rows); the table shows the rest. */
const CHART_POINTS = 50;

/**
 * The chart of a page of rows: the text columns joined are the category, the number columns the series (a pie takes
 * the first number column). ECharts is loaded by StatsChart on first use.
 */
export function chartOption(run: ReportRun): EChartsCoreOption | null {
  if (run.chart === 'table' || !run.rows.length) return null;
  const texts = run.columns.flatMap((c, i) => (c.kind === 'text' ? [i] : []));
  const numbers = run.columns.flatMap((c, i) => (c.kind === 'number' ? [i] : []));
  if (!numbers.length) return null;
  const rows = run.rows.slice(0, CHART_POINTS);
  const category = rows.map((r, n) =>
    texts.length ? texts.map((i) => String(r[i] ?? '')).join(' / ') : String(n + 1),
  );
  if (run.chart === 'pie') {
    const i = numbers[0];
    return {
      tooltip: { trigger: 'item' },
      legend: { type: 'scroll', bottom: 0 },
      series: [
        {
          type: 'pie',
          name: run.columns[i].label,
          radius: '60%',
          data: rows.map((r, n) => ({ name: category[n], value: Number(r[i] ?? 0) })),
        },
      ],
    };
  }
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 48, right: 24, top: 36, bottom: 48 },
    xAxis: { type: 'category', data: category },
    yAxis: { type: 'value' },
    series: numbers.map((i) => ({
      type: run.chart,
      name: run.columns[i].label,
      data: rows.map((r) => Number(r[i] ?? 0)),
    })),
  };
}

/** A csv line's length for the page shown: the export's size in bytes is about rows × this. */
const csvLineBytes = (run: ReportRun) =>
  run.rows.length
    ? run.rows.reduce((n, r) => n + new TextEncoder().encode(r.join(',')).length + 2, 0) / run.rows.length
    : 0;

type Download = { format: 'csv' | 'xlsx'; loaded: number; rows: number | null; stop: AbortController };

/** 报表: a saved report run — its chart, a page of its rows, and the download of all of them with progress and cancel. */
export default function ReportViewer({ id, name, onClose }: { id: string | null; name: string; onClose(): void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ current: 1, size: 20 });
  const [download, setDownload] = useState<Download | null>(null);
  const latest = useRef<Download | null>(null);
  latest.current = download;
  const { data, isFetching } = useQuery({
    queryKey: ['report-run', id, page.current, page.size],
    queryFn: () => runReport(id!, page.current, page.size),
    enabled: !!id,
  });
  const option = useMemo(() => (data ? chartOption(data) : null), [data]);

  async function start(format: 'csv' | 'xlsx') {
    if (!id || latest.current) return;
    const stop = new AbortController();
    setDownload({ format, loaded: 0, rows: null, stop });
    try {
      const file = await exportReport(id, format, stop.signal, (p) =>
        setDownload((d) => (d && d.stop === stop ? { ...d, ...p } : d)),
      );
      saveBlob(file.name, file.blob);
      notify().success(t('reportView.done', { rows: file.rows ?? '?' }));
    } catch (err) {
      if (stop.signal.aborted) notify().info(t('reportView.cancelled'));
      else notify().error((await refusalOf(err)) || t('reportView.failed'));
    } finally {
      setDownload((d) => (d && d.stop === stop ? null : d));
    }
  }

  const close = () => {
    latest.current?.stop.abort();
    setPage({ current: 1, size: 20 });
    onClose();
  };

  // csv: the size is about rows × the page's line length; xlsx is compressed, its size is not known before the end.
  const estimate =
    download && download.format === 'csv' && data && download.rows ? download.rows * csvLineBytes(data) : 0;
  const percent = estimate ? Math.min(99, Math.floor((download!.loaded / estimate) * 100)) : undefined;

  return (
    <Drawer
      open={!!id}
      onClose={close}
      width={960}
      title={t('reportView.title', { name })}
      destroyOnHidden
      extra={
        <Space>
          <Button icon={<DownloadOutlined />} disabled={!!download} onClick={() => void start('csv')}>
            {t('reportView.csv')}
          </Button>
          <Button icon={<DownloadOutlined />} disabled={!!download} onClick={() => void start('xlsx')}>
            {t('reportView.xlsx')}
          </Button>
        </Space>
      }
    >
      {download && (
        <div data-testid="report-progress" style={{ marginBottom: 16 }}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text>
              {t('reportView.received', { size: sizeText(download.loaded), rows: download.rows ?? '…' })}
            </Typography.Text>
            <Button danger size="small" icon={<StopOutlined />} onClick={() => download.stop.abort()}>
              {t('reportView.cancel')}
            </Button>
          </Space>
          <Progress percent={percent ?? 100} status="active" showInfo={percent !== undefined} />
        </div>
      )}
      {data && data.chart !== 'table' && (
        <div data-testid="report-chart" style={{ marginBottom: 16 }}>
          {option ? <StatsChart option={option} height={320} /> : <Empty description={t('reportView.empty')} />}
        </div>
      )}
      {data && data.total > REPORT_RUN_MAX_ROWS && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('reportView.capped', { max: REPORT_RUN_MAX_ROWS })}
        />
      )}
      <Table<ReportRun['rows'][number]>
        data-testid="report-table"
        size="small"
        loading={isFetching}
        rowKey={(_, n) => String(n)}
        dataSource={data?.rows ?? []}
        columns={(data?.columns ?? []).map((c, i) => ({
          key: c.key,
          title: c.label,
          dataIndex: i,
          align: c.kind === 'number' ? ('right' as const) : undefined,
        }))}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: Math.min(data?.total ?? 0, REPORT_RUN_MAX_ROWS),
          showTotal: () => t('reportView.rows', { total: data?.total ?? 0 }),
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100, 500],
          onChange: (current, size) => setPage({ current: size === page.size ? current : 1, size }),
        }}
        scroll={{ x: true }}
      />
    </Drawer>
  );
}
