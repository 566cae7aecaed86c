import { Descriptions, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import EmptyState from '../../../../components/EmptyState';
import { leaveTypes, type HistoryStep, type LeaveDetail } from '../api';
import { showTime } from '../WorkList';

const STATUS: Record<string, { key: string; colour: string }> = {
  running: { key: 'statusRunning', colour: 'processing' },
  passed: { key: 'statusPassed', colour: 'success' },
  rejected: { key: 'statusRejected', colour: 'warning' },
  cancelled: { key: 'statusCancelled', colour: 'default' },
};

/** The request: type, times, days (the server's figure), reason, approver, applicant and state. */
export function LeaveSummary({ leave }: { leave: LeaveDetail }) {
  const { t, i18n } = useTranslation();
  const types = useQuery({ queryKey: ['dict', 'leave_type', i18n.language], queryFn: leaveTypes, staleTime: 300_000 });
  const type = types.data?.find((o) => o.value === leave.category)?.label ?? String(leave.category);
  const status = STATUS[leave.status];
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 1, md: 2 }}
      items={[
        { key: 'applicant', label: t('flowWork.applicant'), children: leave.applyUserName ?? leave.applyUser },
        { key: 'applyTime', label: t('flowWork.applyTime'), children: showTime(leave.applyTime) },
        { key: 'type', label: t('flowWork.leaveType'), children: type },
        {
          key: 'status',
          label: t('flowWork.leaveStatus'),
          children: status ? <Tag color={status.colour}>{t(`flowWork.${status.key}`)}</Tag> : leave.status,
        },
        { key: 'start', label: t('flowWork.leaveStart'), children: showTime(leave.startTime) },
        { key: 'end', label: t('flowWork.leaveEnd'), children: showTime(leave.endTime) },
        { key: 'days', label: t('flowWork.days'), children: t('flowWork.daysUnit', { days: leave.days }) },
        { key: 'approver', label: t('flowWork.approver'), children: leave.taskUserName ?? leave.taskUser },
        {
          key: 'reason',
          label: t('flowWork.reason'),
          span: 'filled',
          children: (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{leave.reason}</Typography.Paragraph>
          ),
        },
      ]}
    />
  );
}

/** A duration in words: minutes, hours or days. */
function duration(ms: number, t: TFunction) {
  const m = Math.max(1, Math.round(ms / 60_000));
  if (m < 60) return t('flowWork.minutes', { n: m });
  const h = Math.round(m / 6) / 10;
  if (h < 24) return t('flowWork.hours', { n: h });
  return t('flowWork.daysShort', { n: Math.round(h / 2.4) / 10 });
}

/** The instance's steps, oldest first: name, who handled it, when, the outcome and the comment. */
export function HistoryTimeline({ steps }: { steps: HistoryStep[] }) {
  const { t } = useTranslation();
  if (!steps.length) return <EmptyState description={t('flowWork.historyEmpty')} />;
  return (
    <Timeline
      items={steps.map((s, i) => ({
        key: `${s.historyActivityId}-${i}`,
        color: !s.endTime ? 'blue' : s.flag === 'reject' ? 'red' : 'green',
        content: (
          <div>
            <Typography.Text strong>{s.historyActivityName}</Typography.Text>{' '}
            {s.flag === 'ok' && <Tag color="success">{t('flowWork.pass')}</Tag>}
            {s.flag === 'reject' && <Tag color="error">{t('flowWork.reject')}</Tag>}
            {!s.endTime && <Tag color="processing">{t('flowWork.inProgress')}</Tag>}
            <div>
              <Typography.Text type="secondary">
                {[
                  s.assigneeName || s.assignee ? `${t('flowWork.assignee')}: ${s.assigneeName ?? s.assignee}` : '',
                  showTime(s.createTime),
                  s.endTime ? `→ ${showTime(s.endTime)}` : '',
                  s.historyActivityDurationTime != null
                    ? t('flowWork.duration', { text: duration(s.historyActivityDurationTime, t) })
                    : '',
                ]
                  .filter(Boolean)
                  .join('  ')}
              </Typography.Text>
            </div>
            {s.comment && <div style={{ whiteSpace: 'pre-wrap' }}>{s.comment}</div>}
          </div>
        ),
      }))}
    />
  );
}
