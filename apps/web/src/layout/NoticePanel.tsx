import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Badge, Empty, List, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { NOTICE } from '@atrium/contract';
import { DATE_FORMAT } from '../components/crud/formats';
import type { BellData } from './useBell';

/** The tasks waiting for the user (linked to their lists). */
function Waiting({ todo, claim, onNavigate }: { todo: number; claim: number; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const item = (to: string, label: string, n: number) => (
    <Link to={to} onClick={onNavigate} data-testid={`waiting-${to.split('/')[2]}`}>
      {label}{' '}
      <Badge count={n} showZero size="small" color={n ? undefined : 'var(--ant-color-text-quaternary, #bfbfbf)'} />
    </Link>
  );
  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'center', padding: '4px 0 8px', flexWrap: 'wrap' }}>
      <strong>{t('notice.work')}</strong>
      {item('/work/todo/index', t('notice.todo'), todo)}
      {item('/work/claim/index', t('notice.claim'), claim)}
    </div>
  );
}

type Row = { key: string; title: ReactNode; time: string; unread: boolean; onClick: () => void; testId: string };

function Rows({ rows }: { rows: Row[] }) {
  const { t } = useTranslation();
  return (
    <div style={{ maxHeight: NOTICE.listHeight, overflow: 'auto' }}>
      <List
        size="small"
        dataSource={rows}
        renderItem={(r) => (
          <List.Item
            key={r.key}
            onClick={r.onClick}
            style={{ cursor: 'pointer' }}
            data-testid={r.testId}
            extra={r.unread ? <Tag color="red">{t('notice.isNew')}</Tag> : undefined}
          >
            <List.Item.Meta
              title={<Typography.Text strong={r.unread}>{r.title}</Typography.Text>}
              description={dayjs(r.time).format(DATE_FORMAT)}
            />
          </List.Item>
        )}
      />
    </div>
  );
}

/**
 * The bell's panel (docs/notices.md "The bell"): the waiting tasks, then a tab per source that holds something — the
 * tenant's latest notices (a click opens the read view), devices gone offline and failed deliveries (a click opens
 * their screen) — or, when nothing is there, says so.
 */
export default function NoticePanel({
  bell,
  onNavigate,
  onRead,
}: {
  bell?: BellData;
  onNavigate?: () => void;
  /** A notice was clicked: the bell closes and shows its read view. */
  onRead: (id: string) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const go = (to: string) => () => {
    onNavigate?.();
    navigate(to);
  };
  const waiting = bell ? bell.waiting.todo + bell.waiting.claim : 0;
  const notices: Row[] = (bell?.notices ?? []).map((n) => ({
    key: n.id,
    title: n.title,
    time: n.releaseTime,
    unread: n.unread,
    onClick: () => onRead(n.id),
    testId: 'bell-notice',
  }));
  const devices: Row[] = (bell?.devices ?? []).map((d) => ({
    key: d.id,
    title: t('notice.offline', { name: d.name ? `${d.name} (${d.deviceCode})` : d.deviceCode }),
    time: d.at,
    unread: d.unread,
    onClick: go('/device/cameradevice/index'),
    testId: 'bell-device',
  }));
  const failures: Row[] = (bell?.failures ?? []).map((f) => ({
    key: f.id,
    title: t('notice.failed', {
      channel: t(`notice.channel.${f.channel === 'email' ? 'email' : 'sms'}`),
      recipient: f.recipient,
    }),
    time: f.at,
    unread: f.unread,
    onClick: go('/resource/outbox/index'),
    testId: 'bell-failure',
  }));
  const tabs = [
    { key: 'notices', label: t('notice.notices'), rows: notices },
    { key: 'devices', label: t('notice.devices'), rows: devices },
    { key: 'failures', label: t('notice.failures'), rows: failures },
  ].filter((tab) => tab.rows.length);
  return (
    <div style={{ width: NOTICE.width, maxWidth: 'calc(100vw - 32px)' }} data-testid="bell-panel">
      {waiting > 0 && <Waiting todo={bell!.waiting.todo} claim={bell!.waiting.claim} onNavigate={onNavigate} />}
      {tabs.length ? (
        <Tabs
          size="small"
          items={tabs.map((tab) => ({
            key: tab.key,
            label: `${tab.label} (${tab.rows.length})`,
            children: <Rows rows={tab.rows} />,
          }))}
        />
      ) : (
        !waiting && (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notice.empty')} data-testid="bell-empty" />
        )
      )}
    </div>
  );
}
