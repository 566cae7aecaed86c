import { Alert, Drawer, Spin, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FlowViewer } from '../lazy';
import { useSettings } from '../../../stores/settings';
import { durationText, flowCalls, StatusTag, timeText, type HistoryRecord, type InstanceRecord } from './common';

/**
 * A process instance (流程跟踪 查看): the diagram with its done and current steps marked (`process/diagram`) and its
 * history (`process/history-flow-list`): step, assignee, start, end, duration, outcome, comment.
 */
export function InstanceDrawer({ instance, onClose }: { instance: InstanceRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const narrow = useSettings((s) => s.screen === 0);
  const id = instance.processInstanceId;
  const diagram = useQuery({
    queryKey: ['flowManage', 'diagram', id],
    queryFn: () => flowCalls.diagram(id),
    retry: false,
  });
  const history = useQuery({
    queryKey: ['flowManage', 'history', id],
    queryFn: () => flowCalls.history(id),
    retry: false,
  });

  const columns: TableColumnsType<HistoryRecord> = [
    { title: t('flowManage.step'), dataIndex: 'historyActivityName', key: 'step' },
    {
      title: t('flowManage.assignee'),
      key: 'assignee',
      render: (_, r) => r.assigneeName ?? r.assignee ?? '',
    },
    { title: t('flowManage.startTime'), key: 'start', render: (_, r) => timeText(r.createTime) },
    {
      title: t('flowManage.endTime'),
      key: 'end',
      render: (_, r) => (r.endTime ? timeText(r.endTime) : <Tag color="processing">{t('flowManage.inProgress')}</Tag>),
    },
    {
      title: t('flowManage.duration'),
      key: 'duration',
      render: (_, r) => durationText(r.historyActivityDurationTime, t),
    },
    {
      title: t('flowManage.outcome'),
      key: 'outcome',
      render: (_, r) =>
        r.flag === 'ok' ? (
          <Tag color="success">{t('flowManage.pass')}</Tag>
        ) : r.flag === 'reject' ? (
          <Tag color="error">{t('flowManage.reject')}</Tag>
        ) : (
          ''
        ),
    },
    { title: t('flowManage.comment'), dataIndex: 'comment', key: 'comment', ellipsis: true },
  ];

  return (
    <Drawer
      open
      size={narrow ? '100%' : 960}
      title={t('flowManage.detail', { name: instance.processDefinitionName })}
      extra={<StatusTag status={instance.status} />}
      onClose={onClose}
      destroyOnHidden
    >
      {instance.deleteReason && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`${t('flowManage.deleteReason')}: ${instance.deleteReason}`}
        />
      )}
      <Typography.Title level={5}>{t('flowManage.diagram')}</Typography.Title>
      {diagram.isPending ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : diagram.isError ? (
        <Alert type="warning" showIcon title={t('flowManage.loadFailed')} />
      ) : (
        <FlowViewer
          xml={diagram.data.xml}
          doneIds={diagram.data.done}
          currentIds={diagram.data.current}
          height={narrow ? 280 : 380}
        />
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('flowManage.history')}
      </Typography.Title>
      {history.isError ? (
        <Alert type="warning" showIcon title={t('flowManage.loadFailed')} />
      ) : (
        <Table<HistoryRecord>
          data-testid="flow-history"
          rowKey="historyActivityId"
          size="small"
          loading={history.isPending}
          columns={columns}
          dataSource={history.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('flowManage.noHistory') }}
        />
      )}
    </Drawer>
  );
}
