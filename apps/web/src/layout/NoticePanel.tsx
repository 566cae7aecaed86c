import { useState } from 'react';
import { Link } from 'react-router';
import { App, Avatar, Badge, List, Pagination, Tabs, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE } from '@atrium/contract';

/**
 * docs/product.md "Screens and routes": hard-coded demo notifications. status 0 未开始 / 1 进行中 / 3 已完成 /
 * 4 紧急. Their texts are locale data (`notice.demo.<key>`), so they follow the language; `page` marks the copies
 * a page change appends.
 */
type Item = { img: string; key: 'inspection' | 'approval' | 'sync' | 'offline'; status: 0 | 1 | 3 | 4; page?: number };
const avatar = (c: string) =>
  `data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><circle cx="16" cy="16" r="16" fill="${c}"/></svg>`)}`;
const SAMPLE: Item[] = [
  { img: avatar('#409EFF'), key: 'inspection', status: 0 },
  { img: avatar('#67C23A'), key: 'approval', status: 1 },
  { img: avatar('#909399'), key: 'sync', status: 3 },
  { img: avatar('#F56C6C'), key: 'offline', status: 4 },
];
const COLOUR: Record<Item['status'], string> = { 0: 'default', 1: 'processing', 3: 'success', 4: 'error' };
const STATUS: Record<Item['status'], string> = { 0: 'pending', 1: 'active', 3: 'done', 4: 'urgent' };

function NoticeList() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [items, setItems] = useState(SAMPLE);
  const [page, setPage] = useState(1);
  const onPage = (p: number) => {
    setPage(p);
    message.success(t('notice.page', { page: p }));
    // Demo behaviour of docs/product.md "Screens and routes": more sample entries arrive after one second.
    setTimeout(() => setItems((list) => [...list, ...SAMPLE.map((s) => ({ ...s, page: p }))]), NOTICE.pageDelayMs);
  };
  return (
    <>
      <div style={{ height: NOTICE.listHeight, overflow: 'auto' }}>
        <List
          dataSource={items}
          renderItem={(it, i) => {
            const title = t(`notice.demo.${it.key}.title`);
            return (
              <List.Item key={i} extra={<Tag color={COLOUR[it.status]}>{t(`notice.status.${STATUS[it.status]}`)}</Tag>}>
                <List.Item.Meta
                  avatar={<Avatar src={it.img} />}
                  title={it.page ? `${title} (${it.page})` : title}
                  description={t(`notice.demo.${it.key}.time`)}
                />
              </List.Item>
            );
          }}
        />
      </div>
      <Pagination
        simple
        size="small"
        current={page}
        total={50}
        onChange={onPage}
        style={{ marginTop: 8, textAlign: 'center' }}
      />
    </>
  );
}

/** The tasks waiting for the user (work/waiting-count), linked to their lists. */
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

export default function NoticePanel({
  waiting,
  onNavigate,
}: {
  waiting?: { todo: number; claim: number };
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ width: NOTICE.width, maxWidth: 'calc(100vw - 32px)' }}>
      {waiting && <Waiting todo={waiting.todo} claim={waiting.claim} onNavigate={onNavigate} />}
      <Tabs
        items={[
          { key: 'mail', label: `${t('notice.mail')}(1)`, children: <NoticeList /> },
          { key: 'message', label: `${t('notice.message')}(2)`, children: <NoticeList /> },
          { key: 'notice', label: t('notice.notice'), children: <NoticeList /> },
        ]}
      />
    </div>
  );
}
