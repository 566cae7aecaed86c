import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Grid, Table, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, LOG_PAGE_LIMIT, PAGE_SIZES, type AnswerOf, type logApi } from '@atrium/contract';
import { call } from '../../../api/call';
import { CappedNote, FilterBar, timeText, usePaged } from './common';

/**
 * One log screen (docs/web.md "Log screens"): the filter bar, the capped note, a page of rows newest first with their
 * time, columns of the log's own, the user and 查看, which opens the log's drawer. Both log screens are this.
 */

type ListRoute = typeof logApi.auditList | typeof logApi.errorList;
type LogRow = { id: string; createTime: string | null; account?: string | null; userId?: string | null };

export function LogList<R extends LogRow>(props: {
  kind: 'audit' | 'error';
  route: ListRoute;
  title: string;
  filters: { name: string; label: string }[];
  columns: TableColumnsType<R>;
  drawer: (row: R, onClose: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const wide = Grid.useBreakpoint().md !== false;
  const paged = usePaged(DEFAULT_PAGE_SIZE);
  const [viewing, setViewing] = useState<R | null>(null);
  const list = useQuery({
    queryKey: ['logView', props.kind, paged.query],
    queryFn: () => call(props.route, { query: paged.query }) as Promise<AnswerOf<ListRoute>>,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const columns: TableColumnsType<R> = [
    { title: t('logView.time'), key: 'createTime', render: (_, r) => timeText(r.createTime) },
    ...props.columns,
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
    <Card title={props.title} data-testid={`${props.kind}-log-page`}>
      <FilterBar fields={props.filters} onSearch={paged.search} />
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
      <Table<R>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        columns={columns}
        dataSource={(list.data?.records ?? []) as unknown as R[]}
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
      {viewing && props.drawer(viewing, () => setViewing(null))}
    </Card>
  );
}
