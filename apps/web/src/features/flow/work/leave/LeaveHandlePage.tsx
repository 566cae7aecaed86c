import { useState } from 'react';
import { Alert, App, Button, Card, Col, Form, Input, Row, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useTabScope } from '../../../../layout/tabScope';
import { useSession } from '../../../../stores/session';
import { statusOf, workApi, type CompleteBody, type LeaveDetail } from '../api';
import { REASON_MAX, leaveBody, valuesOf, type LeaveValues } from './LeaveFields';
import LeaveFields from './LeaveFields';
import { HistoryTimeline, LeaveSummary } from './LeaveView';
import { LeaveState } from './LeaveDetailPage';
import { useLeave } from './useLeave';
import '../texts';

const COMMENT_MAX = REASON_MAX;

/**
 * What the open step of a leave asks of the caller, read from the detail's history (data, not a fixed element id):
 * the open user task assigned to the caller; it is the applicant's adjustment when it is the applicant's own task
 * (the leave model gives the applicant no other task) or its element id says so.
 */
export function openStepOf(leave: LeaveDetail, me: string | undefined) {
  const open = leave.history.filter((h) => !h.endTime && /usertask/i.test(h.historyActivityType));
  const mine = open.find((h) => !!me && h.assignee === me);
  const adjust =
    !!mine && (mine.assignee === leave.applyUser || /adjust|modify|resubmit/i.test(mine.historyActivityId));
  return { open: open.length > 0, mine, adjust };
}

/** The leave handling screen (`/work/process/leave/handle/:taskId/:processInstanceId/:businessId`). */
export default function LeaveHandlePage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const nav = useNavigate();
  const client = useQueryClient();
  const scope = useTabScope();
  const me = useSession((s) => s.userInfo?.id);
  const { taskId = '', processInstanceId = '', businessId = '' } = useParams();
  const q = useLeave(businessId);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [form] = Form.useForm<LeaveValues>();

  if (!q.data)
    return (
      <Card variant="borderless">
        <LeaveState q={q} />
      </Card>
    );
  const leave = q.data;
  const step = openStepOf(leave, me);

  const complete = async (which: string, flag: CompleteBody['flag'], variables?: CompleteBody['variables']) => {
    setBusy(which);
    try {
      await workApi.completeTask({
        taskId,
        processInstanceId: processInstanceId || leave.processInstanceId,
        flag,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
        ...(variables ? { variables } : {}),
      });
      message.success(t(`flowWork.${which}Done`));
      void client.invalidateQueries({ queryKey: ['flow-work'] });
      void client.invalidateQueries({ queryKey: ['flow-waiting'] });
      // A kept-alive tab of this task (or of its detail) must not offer the done task again on return.
      void client.invalidateQueries({ queryKey: ['leave-detail'] });
      void client.invalidateQueries({ queryKey: ['flow-diagram'] });
      nav('/work/todo/index');
    } catch (err) {
      // A 409: someone (or another tab) completed it, or the process ended. Other refusals were shown by the client.
      if (statusOf(err) === 409) {
        setStale(true);
        void q.refetch();
      }
    } finally {
      setBusy(null);
    }
  };
  const resubmit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values) await complete('resubmit', 'ok', leaveBody(values));
  };
  const cancel = () =>
    modal.confirm({
      title: t('flowWork.cancelApply'),
      content: t('flowWork.cancelConfirm'),
      onOk: () => complete('cancel', 'reject'),
    });

  const commentBox = (
    <Input.TextArea
      id={`${scope}leave-comment`}
      aria-label={t('flowWork.comment')}
      rows={3}
      value={comment}
      onChange={(e) => setComment(e.target.value)}
      maxLength={COMMENT_MAX}
      showCount
      placeholder={t('flowWork.commentPlaceholder')}
    />
  );
  const actionable = step.mine && !stale;
  const approver = leave.taskUserName
    ? { id: leave.taskUser, account: '', realName: leave.taskUserName, deptName: null }
    : undefined;

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          {stale && <Alert type="warning" showIcon title={t('flowWork.alreadyDone')} />}
          {!stale && !step.mine && (
            <Alert type="info" showIcon title={step.open ? t('flowWork.notYourTask') : t('flowWork.alreadyDone')} />
          )}
          {actionable && step.adjust ? (
            <Card variant="borderless" title={t('flowWork.adjustTitle')}>
              <Form<LeaveValues>
                form={form}
                name={`${scope}leave-adjust`}
                layout="vertical"
                initialValues={valuesOf(leave)}
                style={{ maxWidth: 640 }}
              >
                <LeaveFields form={form} approver={approver} />
                <Form.Item label={t('flowWork.comment')}>{commentBox}</Form.Item>
              </Form>
              <Space wrap>
                <Button type="primary" loading={busy === 'resubmit'} disabled={!!busy} onClick={() => void resubmit()}>
                  {t('flowWork.resubmit')}
                </Button>
                <Button danger loading={busy === 'cancel'} disabled={!!busy} onClick={cancel}>
                  {t('flowWork.cancelApply')}
                </Button>
              </Space>
            </Card>
          ) : (
            <Card variant="borderless" title={t('flowWork.request')}>
              <LeaveSummary leave={leave} />
              {actionable && (
                <div style={{ marginTop: 16 }}>
                  <div style={{ marginBottom: 8 }}>{t('flowWork.handleTitle')}</div>
                  {commentBox}
                  <Space wrap style={{ marginTop: 12 }}>
                    <Button
                      type="primary"
                      loading={busy === 'pass'}
                      disabled={!!busy}
                      onClick={() => void complete('pass', 'ok')}
                    >
                      {t('flowWork.pass')}
                    </Button>
                    <Button
                      danger
                      loading={busy === 'reject'}
                      disabled={!!busy}
                      onClick={() => void complete('reject', 'reject')}
                    >
                      {t('flowWork.reject')}
                    </Button>
                  </Space>
                </div>
              )}
            </Card>
          )}
        </Space>
      </Col>
      <Col xs={24} xl={10}>
        <Card variant="borderless" title={t('flowWork.history')}>
          <HistoryTimeline steps={leave.history} />
        </Card>
      </Col>
    </Row>
  );
}
