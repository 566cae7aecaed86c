import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Drawer, Grid, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, LOG_PAGE_LIMIT, logApi, PAGE_SIZES, type AnswerOf } from '@atrium/contract';
import { call } from '../../../api/call';
import { CappedNote, FilterBar, timeText, usePaged } from './common';

/**
 * 错误日志 (docs/web.md "Log screens"): the error-log entries the tenant's consoles uploaded (`error/list`), newest
 * first, by type, address, account and time; 查看 shows the stack and the browser.
 */

type ErrorRecord = AnswerOf<typeof logApi.errorList>['records'][number];

export function ErrorScreen() {
  const { t } = useTranslation();
  const wide = Grid.useBreakpoint().md !== false;
  const paged = usePaged(DEFAULT_PAGE_SIZE);
  const [viewing, setViewing] = useState<ErrorRecord | null>(null);
  const list = useQuery({
    queryKey: ['logView', 'error', paged.query],
    queryFn: () => call(logApi.errorList, { query: paged.query }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const columns: TableColumnsType<ErrorRecord> = [
    { title: t('logView.time'), key: 'createTime', render: (_, r) => timeText(r.createTime) },
    { title: t('logView.type'), key: 'type', render: (_, r) => <Tag color="red">{r.type}</Tag> },
    { title: t('logView.url'), dataIndex: 'url', key: 'url' },
    {
      title: t('logView.message'),
      key: 'message',
      render: (_, r) => (
        <Typography.Text ellipsis={{ tooltip: r.message }} style={{ maxWidth: 360 }}>
          {r.message}
        </Typography.Text>
      ),
    },
    { title: t('logView.user'), key: 'user', render: (_, r) => r.account ?? r.userId ?? '' },
    {
      title: t('crud.actions'),
      key: '_actions',
      fixed: wide ? 'right' : undefined,
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => setViewing(r)}>
          {t('logView.view')}
        </Button>
      ),
    },
  ];
  return (
    <Card title={t('logView.errorTitle')} data-testid="error-log-page">
      <FilterBar
        fields={[
          { name: 'type', label: t('logView.type') },
          { name: 'url', label: t('logView.url') },
          { name: 'account', label: t('logView.account') },
        ]}
        onSearch={paged.search}
      />
      {list.isError && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('logView.loadFailed')}
          action={<Button onClick={() => void list.refetch()}>{t('logView.retry')}</Button>}
        />
      )}
      <CappedNote capped={list.data?.capped} limit={LOG_PAGE_LIMIT} />
      <Table<ErrorRecord>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.records ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: paged.page.current,
          pageSize: paged.page.size,
          total: list.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (n: number) => t('crud.total', { n }),
          onChange: (current, size) => paged.setPage({ current, size }),
        }}
      />
      {viewing && <ErrorDrawer row={viewing} onClose={() => setViewing(null)} />}
    </Card>
  );
}

function ErrorDrawer({ row, onClose }: { row: ErrorRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: ['logView', 'errorDetail', row.id],
    queryFn: () => call(logApi.errorDetail, { query: { id: row.id } }),
    retry: false,
  });
  const d = detail.data;
  return (
    <Drawer open size={720} title={t('logView.errorDetail')} onClose={onClose} data-testid="error-detail">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('logView.time')}>{timeText(row.createTime)}</Descriptions.Item>
        <Descriptions.Item label={t('logView.clientTime')}>{row.clientTime ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('logView.type')}>{row.type}</Descriptions.Item>
        <Descriptions.Item label={t('logView.url')}>{row.url ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('logView.user')}>{row.account ?? row.userId ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('logView.message')}>
          <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{row.message}</pre>
        </Descriptions.Item>
        <Descriptions.Item label={t('logView.stack')}>
          <pre style={{ whiteSpace: 'pre-wrap', margin: 0, fontSize: 12 }}>{d?.stack ?? ''}</pre>
        </Descriptions.Item>
        <Descriptions.Item label={t('logView.userAgent')}>{d?.userAgent ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('logView.requestId')}>{d?.requestId ?? ''}</Descriptions.Item>
      </Descriptions>
    </Drawer>
  );
}
