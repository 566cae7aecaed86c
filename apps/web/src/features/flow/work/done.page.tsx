import { Button, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { workApi, type Task } from './api';
import { taskDetailPath } from './routes';
import WorkList, { showTime } from './WorkList';

/** 办结事务: the tasks the user completed, with the outcome and comment; 详情 opens the instance's detail. */
export default function DonePage() {
  const { t } = useTranslation();
  const nav = useNavigate();
  return (
    <WorkList<Task>
      name="done"
      load={workApi.doneList}
      rowKey="taskId"
      filter={{ field: 'processDefinitionName', placeholder: t('flowWork.processNamePlaceholder') }}
      columns={[
        { title: t('flowWork.taskName'), dataIndex: 'taskName', key: 'taskName', sorter: true },
        {
          title: t('flowWork.processName'),
          dataIndex: 'processDefinitionName',
          key: 'processDefinitionName',
          sorter: true,
        },
        {
          title: t('flowWork.outcome'),
          dataIndex: 'flag',
          render: (f: string | null) =>
            f === 'ok' ? (
              <Tag color="success">{t('flowWork.pass')}</Tag>
            ) : f === 'reject' ? (
              <Tag color="error">{t('flowWork.reject')}</Tag>
            ) : null,
        },
        {
          title: t('flowWork.comment'),
          dataIndex: 'comment',
          render: (c: string | null) => (
            <Typography.Text ellipsis={{ tooltip: c }} style={{ maxWidth: 240 }}>
              {c ?? ''}
            </Typography.Text>
          ),
        },
        { title: t('flowWork.endTime'), dataIndex: 'endTime', key: 'endTime', sorter: true, render: showTime },
        {
          title: t('flowWork.actions'),
          key: 'actions',
          render: (_: unknown, r) => {
            const to = taskDetailPath(r);
            return to ? (
              <Button type="link" size="small" onClick={() => nav(to)}>
                {t('flowWork.detail')}
              </Button>
            ) : null;
          },
        },
      ]}
    />
  );
}
