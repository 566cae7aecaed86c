import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../../stores/session';
import { workApi, type Task } from './api';
import { handlePath } from './routes';
import WorkList, { showTime } from './WorkList';

/** 待办事务: the open tasks assigned to the user; 处理 (work_todo_handle) opens the category's handling screen. */
export default function TodoPage() {
  const { t } = useTranslation();
  const nav = useNavigate();
  const canHandle = useSession((s) => !!s.permission.work_todo_handle);
  return (
    <WorkList<Task>
      name="todo"
      load={workApi.todoList}
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
        { title: t('flowWork.starter'), dataIndex: 'startUserName', render: (n: string | null, r) => n ?? r.startUser },
        { title: t('flowWork.createTime'), dataIndex: 'createTime', key: 'createTime', sorter: true, render: showTime },
        {
          title: t('flowWork.actions'),
          key: 'actions',
          render: (_: unknown, r) => {
            if (!canHandle) return null;
            const to = handlePath(r);
            const button = (
              <Button type="link" size="small" disabled={!to} onClick={() => to && nav(to)}>
                {t('flowWork.handle')}
              </Button>
            );
            return to ? (
              button
            ) : (
              <Tooltip title={t('flowWork.noRoute')}>
                <span>{button}</span>
              </Tooltip>
            );
          },
        },
      ]}
    />
  );
}
