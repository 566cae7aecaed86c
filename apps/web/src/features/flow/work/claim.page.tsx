import { useState } from 'react';
import { App, Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../stores/session';
import { messageOf, statusOf, workApi, type Task } from './api';
import { actionsColumn, openTaskColumns } from './columns';
import WorkList, { listKey } from './WorkList';

/**
 * 待签事务: open tasks of the user's roles nobody has claimed; 签收 (work_claim_sign) makes the task the user's. When
 * someone else was first (409), the screen says so and reloads the list.
 */
export default function ClaimPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const canSign = useSession((s) => !!s.permission.work_claim_sign);
  const [busy, setBusy] = useState<string | null>(null);
  const reload = () => {
    void client.invalidateQueries({ queryKey: listKey('claim') });
    void client.invalidateQueries({ queryKey: ['flow-waiting'] });
  };
  const claim = async (task: Task) => {
    setBusy(task.taskId);
    try {
      await workApi.claimTask(task.taskId);
      message.success(t('flowWork.claimed'));
    } catch (err) {
      // Other refusals were shown by the http client; a 409 is said here, with the server's reason if it gave one.
      if (statusOf(err) === 409)
        message.warning(t('flowWork.claimedByOther') + (messageOf(err) ? `: ${messageOf(err)}` : ''));
    } finally {
      setBusy(null);
      reload();
    }
  };
  return (
    <WorkList<Task>
      name="claim"
      load={workApi.claimList}
      rowKey="taskId"
      columns={[
        ...openTaskColumns(t),
        actionsColumn<Task>(t, (r) =>
          canSign ? (
            <Button type="link" size="small" loading={busy === r.taskId} onClick={() => void claim(r)}>
              {t('flowWork.claim')}
            </Button>
          ) : null,
        ),
      ]}
    />
  );
}
