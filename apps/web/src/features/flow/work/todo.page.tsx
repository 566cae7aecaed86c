import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../../stores/session';
import { workApi, type Task } from './api';
import { handlePath } from './routes';
import { actionsColumn, openTaskColumns, RouteButton } from './columns';
import WorkList from './WorkList';

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
      columns={[
        ...openTaskColumns(t),
        actionsColumn<Task>(t, (r) =>
          canHandle ? (
            <RouteButton to={handlePath(r)} label={t('flowWork.handle')} missing={t('flowWork.noRoute')} go={nav} />
          ) : null,
        ),
      ]}
    />
  );
}
