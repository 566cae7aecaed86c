import { useMemo, useState } from 'react';
import { Breadcrumb, Button, Card, Col, Grid, DatePicker, Progress, Row, Space, Statistic, Table, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import type { TableProps } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import StatsChart from './stats/StatsChart';
import { statsApi, type StatRow } from './stats/api';
import { lineOption, pieOption } from './stats/charts';
import './stats/messages';
import EmptyState from '../../components/EmptyState';

type Crumb = { code: string; name: string };

/**
 * 设备在线统计 (docs/devices.md "Statistics"): one row per child region of the region on screen (the caller's top
 * region first), a click on a region drills into it; a past day from the daily rollup; the pie of the region's
 * online and offline devices and its 30-day online-rate line.
 */
export default function DeviceOnlinePage() {
  const { t } = useTranslation();
  const phone = Grid.useBreakpoint().md === false;
  const [path, setPath] = useState<Crumb[]>([]);
  const [day, setDay] = useState<Dayjs | null>(null);
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const [sort, setSort] = useState<{ ascs?: string; descs?: string }>({});
  const regionCode = path.at(-1)?.code;
  const date = day?.format('YYYY-MM-DD');

  const page = useQuery({
    queryKey: ['stats-page', regionCode, date, paging, sort],
    queryFn: () => statsApi.page({ regionCode, date, ...paging, ...sort }),
    placeholderData: keepPreviousData,
  });
  const trend = useQuery({
    queryKey: ['stats-trend', regionCode],
    queryFn: () => statsApi.trend({ regionCode }),
  });
  const data = page.data;
  const summary = data?.summary;

  const open = (r: StatRow) => {
    if (r.regionCode === data?.regionCode) return;
    const base = path.length
      ? path
      : data
        ? [{ code: data.regionCode, name: data.regionPath || data.regionName || t('stats.top') }]
        : [];
    setPath([...base, { code: r.regionCode, name: r.regionName }]);
    setPaging((p) => ({ ...p, current: 1 }));
  };
  const goTo = (i: number) => {
    setPath((p) => p.slice(0, i + 1));
    setPaging((p) => ({ ...p, current: 1 }));
  };

  // One line per cell: a region's name never wraps a character or two a line on a phone; the table scrolls sideways.
  const nowrap = () => ({ style: { whiteSpace: 'nowrap' as const } });
  const columns: TableProps<StatRow>['columns'] = [
    {
      title: t('stats.region'),
      dataIndex: 'regionName',
      sorter: true,
      render: (name: string, r) =>
        r.regionCode === data?.regionCode ? (
          name
        ) : (
          <Tooltip title={t('stats.drill')}>
            <a onClick={() => open(r)}>{name || r.regionCode}</a>
          </Tooltip>
        ),
    },
    { title: t('stats.total'), dataIndex: 'total', sorter: true, align: 'right' },
    { title: t('stats.online'), dataIndex: 'online', sorter: true, align: 'right' },
    { title: t('stats.offline'), dataIndex: 'offline', sorter: true, align: 'right' },
    {
      title: t('stats.onlineRate'),
      dataIndex: 'onlineRate',
      sorter: true,
      width: phone ? 120 : 200,
      render: (v: number) => <Progress percent={v} size="small" format={(p) => `${p}%`} />,
    },
  ];

  for (const col of columns) Object.assign(col, { onCell: nowrap, onHeaderCell: nowrap });

  const onChange: TableProps<StatRow>['onChange'] = (pg, _f, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.order ? String(s.field) : undefined;
    setSort(field ? (s.order === 'ascend' ? { ascs: field } : { descs: field }) : {});
    setPaging({ current: pg.current ?? 1, size: pg.pageSize ?? 10 });
  };

  const crumbs = path.length
    ? path
    : data
      ? [{ code: data.regionCode, name: data.regionPath || data.regionName || t('stats.top') }]
      : [];
  const labels = { online: t('stats.online'), offline: t('stats.offline') };
  const pie = useMemo(() => (summary ? pieOption(summary, labels) : undefined), [summary, labels.online]); // eslint-disable-line react-hooks/exhaustive-deps
  const line = useMemo(
    () => (trend.data ? lineOption(trend.data.days, t('stats.onlineRate')) : undefined),
    [trend.data, t],
  );

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Breadcrumb
            items={crumbs.map((c, i) => ({
              key: c.code,
              title: i < crumbs.length - 1 ? <a onClick={() => goTo(i)}>{c.name}</a> : c.name,
            }))}
          />
          <Space wrap>
            <Tooltip title={t('stats.pastDayHint')}>
              <DatePicker
                value={day}
                onChange={(d) => {
                  setDay(d);
                  setPaging((p) => ({ ...p, current: 1 }));
                }}
                placeholder={t('stats.datePlaceholder')}
                disabledDate={(d) => !d.isBefore(dayjs(), 'day')}
                allowClear
              />
            </Tooltip>
            <Button icon={<ReloadOutlined />} onClick={() => void page.refetch()} aria-label="reload" />
          </Space>
        </Space>
      </Card>
      <Row gutter={[12, 12]}>
        <Col xs={24} sm={8}>
          <Card size="small">
            <Statistic title={t('stats.total')} value={summary?.total ?? 0} loading={page.isLoading} />
          </Card>
        </Col>
        <Col xs={12} sm={8}>
          <Card size="small">
            <Statistic title={t('stats.online')} value={summary?.online ?? 0} loading={page.isLoading} />
          </Card>
        </Col>
        <Col xs={12} sm={8}>
          <Card size="small">
            <Statistic
              title={`${t('stats.onlineRate')}${date ? ` (${date})` : ''}`}
              value={summary?.onlineRate ?? 0}
              suffix="%"
              loading={page.isLoading}
            />
          </Card>
        </Col>
      </Row>
      <Row gutter={[12, 12]}>
        <Col xs={24} lg={14}>
          <Card size="small">
            <Table<StatRow>
              rowKey="regionCode"
              size="small"
              loading={page.isFetching}
              columns={columns}
              dataSource={data?.records ?? []}
              scroll={{ x: 'max-content' }}
              onChange={onChange}
              locale={{ emptyText: <EmptyState description={t('stats.noData')} /> }}
              pagination={{
                current: paging.current,
                pageSize: paging.size,
                total: data?.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: [10, 30, 50, 100, 200],
              }}
            />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Space direction="vertical" size={12} style={{ width: '100%' }}>
            <Card size="small" title={t('stats.pie')}>
              {pie && summary!.total > 0 ? (
                <StatsChart option={pie} height={240} />
              ) : (
                <EmptyState description={page.isLoading ? undefined : t('stats.noData')} />
              )}
            </Card>
            <Card size="small" title={t('stats.line')}>
              {line ? <StatsChart option={line} height={240} /> : <EmptyState description={t('stats.noData')} />}
            </Card>
          </Space>
        </Col>
      </Row>
    </Space>
  );
}
