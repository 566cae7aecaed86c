import { Button, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCategoryName, workApi, type Definition } from './api';
import { startFormPath } from './routes';
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
      filter={{ field: 'name', placeholder: t('flowWork.processNamePlaceholder') }}
      columns={[
        { title: t('flowWork.processName'), dataIndex: 'name', key: 'name', sorter: true },
        { title: t('flowWork.category'), dataIndex: 'category', render: categoryName },
        {
          title: t('flowWork.version'),
          dataIndex: 'version',
          key: 'version',
          sorter: true,
          render: (v: number) => <Tag>{t('flowWork.versionOf', { version: v })}</Tag>,
        },
        {
          title: t('flowWork.actions'),
          key: 'actions',
          render: (_: unknown, r) => {
            const to = startFormPath(r.formRoute, r.id);
            const button = (
              <Button type="link" size="small" disabled={!to} onClick={() => to && nav(to)}>
                {t('flowWork.start')}
              </Button>
            );
            return to ? (
              button
            ) : (
              <Tooltip title={t('flowWork.noForm')}>
                <span>{button}</span>
              </Tooltip>
            );
          },
        },
      ]}
    />
  );
}
