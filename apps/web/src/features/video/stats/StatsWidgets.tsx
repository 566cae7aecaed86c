import { useMemo } from 'react';
import { Card, Col, Row, Spin, Statistic, Tag, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import dayjs from 'dayjs';
import { approval } from '@atrium/contract/resources/customer/approval';
import { clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { get } from '../../../api/http';
import StatsChart from './StatsChart';
import { DEVICE_TYPES, statsApi, type RankRow } from './api';
import { barOption } from './charts';
import './messages';
import EmptyState from '../../../components/EmptyState';

/** The device-type picker's choices: every type, or one level-1 code of the device dictionary. */
export function useTypeOptions() {
  const { t } = useTranslation();
  return [
    { value: '', label: t('stats.allTypes') },
    ...DEVICE_TYPES.map((code) => ({ value: code, label: t(`stats.type${code}`) })),
  ];
}

/** Bars of a ranking, or its loading / empty state. */
export function RankingBars({
  rows,
  loading,
  name,
  color,
}: {
  rows?: RankRow[];
  loading: boolean;
  name: string;
  color?: string;
}) {
  const { t } = useTranslation();
  const option = useMemo(() => (rows ? barOption(rows, name, color) : undefined), [rows, name, color]);
  if (loading && !rows) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (!option || !rows?.some((r) => r.total > 0)) return <EmptyState description={t('stats.noData')} />;
  const bars = Math.min(rows.filter((r) => r.total > 0).length, 20);
  return <StatsChart option={option} height={Math.max(200, bars * 28 + 48)} />;
}

/** The home dashboard's widgets (pages/Home.tsx), each shown only to a user holding its screen. */

/** Totals and online rate of the caller's top region. */
export function TotalsWidget() {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['home-stats-totals'], queryFn: () => statsApi.page({ size: 1 }) });
  const s = q.data?.summary;
  const items = [
    { key: 'total', title: t('stats.total'), value: s?.total ?? 0 },
    { key: 'online', title: t('stats.online'), value: s?.online ?? 0 },
    { key: 'offline', title: t('stats.offline'), value: s?.offline ?? 0 },
    { key: 'rate', title: t('stats.onlineRate'), value: s?.onlineRate ?? 0, suffix: '%' },
  ];
  return (
    <Row gutter={[12, 12]}>
      {items.map((i) => (
        <Col key={i.key} xs={12} md={6}>
          <Card size="small">
            <Statistic title={i.title} value={i.value} suffix={i.suffix} loading={q.isLoading} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** Regions the home dashboard's rankings show (the ranking screen shows 20 on a chart). */
export const HOME_TOP = 8;

/**
 * A ranking's first regions as plain bars (name, a bar as wide as its share of the first, the count) — the home page
 * draws no chart, so the dashboard loads no ECharts chunk (docs/devices.md "Screens", docs/web.md "Bundle budget").
 */
export function TopBars({ rows, loading, color = '#409EFF' }: { rows?: RankRow[]; loading: boolean; color?: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (loading && !rows) return <Spin style={{ display: 'block', padding: 48 }} />;
  const shown = (rows ?? []).filter((r) => r.total > 0).slice(0, HOME_TOP);
  if (!shown.length) return <EmptyState description={t('stats.noData')} />;
  const max = shown[0].total;
  return (
    <ol className="atrium-topbars" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {shown.map((r) => (
        <li
          key={r.regionCode}
          data-region-code={r.regionCode}
          style={{
            display: 'grid',
            gridTemplateColumns: '7em 1fr auto',
            alignItems: 'center',
            gap: 8,
            padding: '3px 0',
          }}
        >
          <Typography.Text ellipsis title={r.regionName || r.regionCode}>
            {r.regionName || r.regionCode}
          </Typography.Text>
          <span style={{ background: token.colorFillSecondary, borderRadius: 2, height: 10 }} aria-hidden>
            <span
              style={{
                display: 'block',
                height: '100%',
                borderRadius: 2,
                background: color,
                width: `${Math.max(2, (r.total / max) * 100)}%`,
              }}
            />
          </span>
          <span style={{ fontVariantNumeric: 'tabular-nums' }}>{r.total.toLocaleString()}</span>
        </li>
      ))}
    </ol>
  );
}

/** Both rankings, side by side, as plain bars; "more" opens the ranking screen (its charts). */
export function RankingsWidget({ more }: { more?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const devices = useQuery({ queryKey: ['home-rank-devices'], queryFn: () => statsApi.deviceRanking({}) });
  const channels = useQuery({ queryKey: ['home-rank-channels'], queryFn: () => statsApi.channelRanking({}) });
  const extra = more ? <a onClick={() => navigate(more)}>{t('stats.more')}</a> : null;
  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} lg={12}>
        <Card size="small" title={t('stats.byDevices')} extra={extra}>
          <TopBars rows={devices.data} loading={devices.isLoading} />
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title={t('stats.byChannels')} extra={extra}>
          <TopBars rows={channels.data} loading={channels.isLoading} color="#13c2c2" />
        </Card>
      </Col>
    </Row>
  );
}

type Listed = { id: string; name: string; when?: string | null; extra?: string | null };

function ListCard({
  title,
  rows,
  loading,
  empty,
  more,
}: {
  title: string;
  rows?: Listed[];
  loading: boolean;
  empty: string;
  more?: string;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  return (
    <Card size="small" title={title} extra={more ? <a onClick={() => navigate(more)}>{t('stats.more')}</a> : null}>
      {/* Plain rows, not antd List: List brings Pagination and Select along, bytes the home page does not need
          (docs/web.md "Bundle budget"). */}
      {loading && !rows ? (
        <Spin style={{ display: 'block', padding: 24 }} />
      ) : !rows?.length ? (
        <EmptyState description={empty} />
      ) : (
        <ul className="atrium-home-list" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {rows.map((r) => (
            <li
              key={r.id}
              style={{
                display: 'flex',
                alignItems: 'center',
                gap: 8,
                padding: '8px 16px',
                borderBottom: `1px solid ${token.colorSplit}`,
              }}
            >
              <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
                {r.name}
              </Typography.Text>
              {r.extra ? <Tag style={{ marginInlineEnd: 0 }}>{r.extra}</Tag> : null}
              {r.when ? (
                <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                  {dayjs(r.when).format('YYYY-MM-DD HH:mm')}
                </Typography.Text>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

type Page<T> = { records: T[] };

/** The five newest clients (客户信息 page, newest first). */
export function LatestClientsWidget({ more }: { more?: string }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['home-latest-clients'],
    queryFn: () =>
      get<Page<{ id: string; clientName: string; createTime?: string; regionName?: string }>>(
        `${clientinfo.base}/${clientinfo.listPath}`,
        { current: 1, size: 5, descs: 'createTime' },
      ),
  });
  const rows = q.data?.records.map((r) => ({ id: r.id, name: r.clientName, when: r.createTime, extra: r.regionName }));
  return (
    <ListCard
      title={t('stats.latestClients')}
      rows={rows}
      loading={q.isLoading}
      empty={t('stats.noClients')}
      more={more}
    />
  );
}

/** The five newest applications waiting for a decision. */
export function PendingApprovalsWidget({ more }: { more?: string }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['home-pending-approvals'],
    queryFn: () =>
      get<Page<{ id: string; title?: string; applicantName?: string; submitTime?: string }>>(`${approval.base}/list`, {
        current: 1,
        size: 5,
        status: 0,
        descs: 'submitTime',
      }),
  });
  const rows = q.data?.records.map((r) => ({
    id: r.id,
    name: r.title || r.applicantName || r.id,
    when: r.submitTime,
    extra: r.applicantName,
  }));
  return (
    <ListCard
      title={t('stats.pendingApprovals')}
      rows={rows}
      loading={q.isLoading}
      empty={t('stats.noApprovals')}
      more={more}
    />
  );
}
