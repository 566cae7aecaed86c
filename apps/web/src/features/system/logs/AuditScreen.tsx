import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Drawer, Grid, Table, Tag, type TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, LOG_PAGE_LIMIT, logApi, PAGE_SIZES, type AnswerOf } from '@atrium/contract';
import { call } from '../../../api/call';
import { CappedNote, entityLabel, fieldLabel, FilterBar, timeText, useEntityDef, usePaged, valueText } from './common';

/**
 * 审计日志 (docs/web.md "Log screens"): the tenant's audit rows, newest first, filtered by entity, account, record and
 * time (`audit/list`); 查看 opens a row with its changed fields, before → after, labelled by the entity's definition.
 */

type AuditRecord = AnswerOf<typeof logApi.auditList>['records'][number];
const ACTION_COLOURS: Record<string, string> = { insert: 'green', update: 'blue', delete: 'red' };

export function ActionTag({ action }: { action: string }) {
  const { t } = useTranslation();
  const known = ['insert', 'update', 'delete'].includes(action);
  return <Tag color={ACTION_COLOURS[action] ?? 'default'}>{known ? t(`logView.${action}`) : action}</Tag>;
}

export function AuditScreen() {
  const { t } = useTranslation();
  const wide = Grid.useBreakpoint().md !== false;
  const paged = usePaged(DEFAULT_PAGE_SIZE);
  const [viewing, setViewing] = useState<AuditRecord | null>(null);
  const list = useQuery({
    queryKey: ['logView', 'audit', paged.query],
    queryFn: () => call(logApi.auditList, { query: paged.query }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const columns: TableColumnsType<AuditRecord> = [
    { title: t('logView.time'), key: 'createTime', render: (_, r) => timeText(r.createTime) },
    { title: t('logView.entity'), dataIndex: 'entity', key: 'entity' },
    { title: t('logView.action'), key: 'action', render: (_, r) => <ActionTag action={r.action} /> },
    { title: t('logView.entityId'), dataIndex: 'entityId', key: 'entityId' },
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
    <Card title={t('logView.auditTitle')} data-testid="audit-log-page">
      <FilterBar
        fields={[
          { name: 'entity', label: t('logView.entity') },
          { name: 'account', label: t('logView.account') },
          { name: 'entityId', label: t('logView.entityId') },
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
      <Table<AuditRecord>
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
      {viewing && <AuditDrawer row={viewing} onClose={() => setViewing(null)} />}
    </Card>
  );
}

type Change = { field: string; before: unknown; after: unknown };

/** One audit row: who, when, what, and its changed fields as a table (field, before, after). */
function AuditDrawer({ row, onClose }: { row: AuditRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: ['logView', 'auditDetail', row.id],
    queryFn: () => call(logApi.auditDetail, { query: { id: row.id } }),
    retry: false,
  });
  const def = useEntityDef(row.entity).data;
  const columns: TableColumnsType<Change> = [
    { title: t('logView.field'), key: 'field', render: (_, c) => fieldLabel(def, c.field) },
    {
      title: t('logView.before'),
      key: 'before',
      render: (_, c) => <span className="audit-before">{valueText(c.before)}</span>,
    },
    {
      title: t('logView.after'),
      key: 'after',
      render: (_, c) => <span className="audit-after">{valueText(c.after)}</span>,
    },
  ];
  return (
    <Drawer
      open
      size={720}
      title={t('logView.auditDetail', { entity: entityLabel(def, row.entity), action: row.action })}
      onClose={onClose}
      data-testid="audit-detail"
    >
      <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('logView.time')}>{timeText(row.createTime)}</Descriptions.Item>
        <Descriptions.Item label={t('logView.entity')}>{entityLabel(def, row.entity)}</Descriptions.Item>
        <Descriptions.Item label={t('logView.action')}>
          <ActionTag action={row.action} />
        </Descriptions.Item>
        <Descriptions.Item label={t('logView.entityId')}>{row.entityId ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('logView.user')}>
          {[row.account, row.userName].filter(Boolean).join(' / ') || row.userId || ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('logView.requestId')}>{row.requestId ?? ''}</Descriptions.Item>
      </Descriptions>
      <Table<Change>
        rowKey="field"
        size="small"
        loading={detail.isFetching}
        columns={columns}
        dataSource={detail.data?.changes ?? []}
        pagination={false}
        locale={{ emptyText: t('logView.noChanges') }}
      />
    </Drawer>
  );
}
