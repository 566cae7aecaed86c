import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { workApi, type Instance } from './api';
import { detailPath } from './routes';
import { actionsColumn, RouteButton, sorted, timeColumn } from './columns';
import WorkList from './WorkList';

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
      columns={[
        sorted<Instance>(t('flowWork.processName'), 'processDefinitionName'),
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
        timeColumn<Instance>(t('flowWork.startTime'), 'startTime'),
        timeColumn<Instance>(t('flowWork.endTime'), 'endTime'),
        actionsColumn<Instance>(t, (r) => <RouteButton to={detailPath(r)} label={t('flowWork.detail')} go={nav} />),
      ]}
    />
  );
}
