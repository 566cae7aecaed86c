import { Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { workApi, type Instance } from './api';
import { detailPath } from './routes';
import WorkList, { showTime } from './WorkList';

const STATUS_COLOUR = { running: 'processing', ended: 'success', deleted: 'default' } as const;

/** 已发事务: the instances the user started, with their state and current steps; 详情 opens the detail screen. */
export default function SendPage() {
  const { t } = useTranslation();
  const nav = useNavigate();
  return (
    <WorkList<Instance>
      name="send"
      load={workApi.sendList}
      rowKey="processInstanceId"
      filter={{ field: 'processDefinitionName', placeholder: t('flowWork.processNamePlaceholder') }}
      columns={[
        {
          title: t('flowWork.processName'),
          dataIndex: 'processDefinitionName',
          key: 'processDefinitionName',
          sorter: true,
        },
        {
          title: t('flowWork.status'),
          dataIndex: 'status',
          render: (s: Instance['status'], r) => (
            <Tag color={STATUS_COLOUR[s]} title={r.deleteReason ?? undefined}>
              {t(`flowWork.${s}`)}
            </Tag>
          ),
        },
        {
          title: t('flowWork.currentSteps'),
          dataIndex: 'currentSteps',
          render: (steps: string[]) => steps.join(t('flowWork.listSeparator')),
        },
        { title: t('flowWork.startTime'), dataIndex: 'startTime', key: 'startTime', sorter: true, render: showTime },
        { title: t('flowWork.endTime'), dataIndex: 'endTime', key: 'endTime', sorter: true, render: showTime },
        {
          title: t('flowWork.actions'),
          key: 'actions',
          render: (_: unknown, r) => {
            const to = detailPath(r);
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
