import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCategoryName, workApi, type Definition } from './api';
import { startFormPath } from './routes';
import { actionsColumn, RouteButton, sorted } from './columns';
import WorkList from './WorkList';

/** 发起事务: the processes the user may start; 发起 opens the category's start form (docs/workflow.md). */
export default function StartPage() {
  const { t } = useTranslation();
  const nav = useNavigate();
  const categoryName = useCategoryName();
  return (
    <WorkList<Definition>
      name="start"
      load={workApi.startList}
      rowKey="id"
      filterField="name"
      columns={[
        sorted<Definition>(t('flowWork.processName'), 'name'),
        { title: t('flowWork.category'), dataIndex: 'category', render: categoryName },
        sorted<Definition>(t('flowWork.version'), 'version', (v: number) => (
          <Tag>{t('flowWork.versionOf', { version: v })}</Tag>
        )),
        actionsColumn<Definition>(t, (r) => (
          <RouteButton
            to={startFormPath(r.formRoute, r.id)}
            label={t('flowWork.start')}
            missing={t('flowWork.noForm')}
            go={nav}
          />
        )),
      ]}
    />
  );
}
