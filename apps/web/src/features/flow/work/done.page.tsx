import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { workApi, type Task } from './api';
import { taskDetailPath } from './routes';
import { actionsColumn, RouteButton, taskColumns, timeColumn } from './columns';
import WorkList from './WorkList';

/** 办结事务: the tasks the user completed, with the outcome and comment; 详情 opens the instance's detail. */
export default function DonePage() {
  const { t } = useTranslation();
  const nav = useNavigate();
  return (
    <WorkList<Task>
      name="done"
      load={workApi.doneList}
      rowKey="taskId"
      columns={[
        ...taskColumns(t),
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
        timeColumn<Task>(t('flowWork.endTime'), 'endTime'),
        actionsColumn<Task>(t, (r) => <RouteButton to={taskDetailPath(r)} label={t('flowWork.detail')} go={nav} />),
      ]}
    />
  );
}
