import { Descriptions, Drawer, Table, Tag, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { logApi, type AnswerOf } from '@atrium/contract';
import { call } from '../../../api/call';
import { entityLabel, fieldLabel, timeText, useEntityDef, valueText } from './common';
import { LogList } from './LogList';

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
  return (
    <LogList<AuditRecord>
      kind="audit"
      route={logApi.auditList}
      title={t('logView.auditTitle')}
      filters={[
        { name: 'entity', label: t('logView.entity') },
        { name: 'account', label: t('logView.account') },
        { name: 'entityId', label: t('logView.entityId') },
      ]}
      columns={[
        { title: t('logView.entity'), dataIndex: 'entity', key: 'entity' },
        { title: t('logView.action'), key: 'action', render: (_, r) => <ActionTag action={r.action} /> },
        { title: t('logView.entityId'), dataIndex: 'entityId', key: 'entityId' },
      ]}
      drawer={(row, onClose) => <AuditDrawer row={row} onClose={onClose} />}
    />
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
