import { useEffect, useMemo, useState } from 'react';
import { DatePicker, Form, Input, Select, Spin, Typography, type FormInstance } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { leaveTypes, workApi, type LeaveBody, type UserOption } from '../api';
import { estimateDays, wireTime } from './days';

/** The leave form's values as the controls hold them. */
export type LeaveValues = { category?: number; startTime?: Dayjs; endTime?: Dayjs; reason?: string; taskUser?: string };

export const REASON_MAX = 500;

/** The values as the leave calls send them (start-process's body; complete-task's variables on a resubmit). */
export function leaveBody(v: LeaveValues): Omit<LeaveBody, 'processDefinitionId'> {
  return {
    category: v.category!,
    startTime: wireTime(v.startTime!.toDate()),
    endTime: wireTime(v.endTime!.toDate()),
    reason: (v.reason ?? '').trim(),
    taskUser: v.taskUser!,
  };
}

/** A user as the approver picker shows it: name (account) · department. */
const userLabel = (u: UserOption) =>
  `${u.realName || u.account}${u.realName && u.account ? ` (${u.account})` : ''}${u.deptName ? ` · ${u.deptName}` : ''}`;

/** The approver picker: users of the tenant matching what is typed (debounced), from work/user-options. */
function ApproverSelect({
  value,
  onChange,
  id,
  initial,
}: {
  value?: string;
  onChange?: (v: string) => void;
  id?: string;
  initial?: UserOption;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [name, setName] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setName(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const users = useQuery({
    queryKey: ['flow-user-options', name],
    queryFn: () => workApi.userOptions(name),
    staleTime: 30_000,
  });
  const options = useMemo(() => {
    const list = users.data ?? [];
    const all = initial && !list.some((u) => u.id === initial.id) ? [initial, ...list] : list;
    return all.map((u) => ({ value: u.id, label: userLabel(u) }));
  }, [users.data, initial]);
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value}
      onChange={onChange}
      options={options}
      placeholder={t('flowWork.approverPlaceholder')}
      notFoundContent={users.isFetching ? <Spin size="small" /> : t('flowWork.approverNone')}
      loading={users.isFetching}
      allowClear
    />
  );
}

/**
 * The fields of a leave request: type (dictionary `leave_type`), start and end, the days (an estimate here; the
 * server's figure once stored), reason and approver. Used by the start form and by the applicant's adjustment.
 */
export default function LeaveFields({ form, approver }: { form: FormInstance<LeaveValues>; approver?: UserOption }) {
  const { t, i18n } = useTranslation();
  const types = useQuery({ queryKey: ['dict', 'leave_type', i18n.language], queryFn: leaveTypes, staleTime: 300_000 });
  const start = Form.useWatch('startTime', form);
  const end = Form.useWatch('endTime', form);
  const days = estimateDays(start?.toDate(), end?.toDate());
  const required = (key: string) => ({ required: true, message: t(key) });
  return (
    <>
      <Form.Item name="category" label={t('flowWork.leaveType')} rules={[required('flowWork.leaveTypeRequired')]}>
        <Select options={types.data ?? []} loading={types.isFetching} />
      </Form.Item>
      <Form.Item name="startTime" label={t('flowWork.leaveStart')} rules={[required('flowWork.leaveStartRequired')]}>
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="endTime"
        label={t('flowWork.leaveEnd')}
        dependencies={['startTime']}
        rules={[
          required('flowWork.leaveEndRequired'),
          ({ getFieldValue }) => ({
            validator: (_, v: Dayjs | undefined) => {
              const s = getFieldValue('startTime') as Dayjs | undefined;
              return !v || !s || v.isAfter(s)
                ? Promise.resolve()
                : Promise.reject(new Error(t('flowWork.leaveEndAfterStart')));
            },
          }),
        ]}
      >
        <DatePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          style={{ width: '100%' }}
          disabledDate={(d) => !!start && d.isBefore(start, 'day')}
        />
      </Form.Item>
      <Form.Item label={t('flowWork.days')}>
        <Typography.Text type={days ? undefined : 'secondary'} data-testid="leave-days">
          {days ? t('flowWork.daysEstimate', { days }) : t('flowWork.daysNone')}
        </Typography.Text>
      </Form.Item>
      <Form.Item
        name="reason"
        label={t('flowWork.reason')}
        rules={[
          { required: true, whitespace: true, message: t('flowWork.reasonRequired') },
          { max: REASON_MAX, message: t('flowWork.reasonTooLong', { max: REASON_MAX }) },
        ]}
      >
        <Input.TextArea rows={3} showCount maxLength={REASON_MAX} />
      </Form.Item>
      <Form.Item name="taskUser" label={t('flowWork.approver')} rules={[required('flowWork.approverRequired')]}>
        <ApproverSelect initial={approver} />
      </Form.Item>
    </>
  );
}

/** A stored leave as the form's values. */
export const valuesOf = (l: {
  category: number;
  startTime: string;
  endTime: string;
  reason: string;
  taskUser: string;
}) =>
  ({
    category: l.category,
    startTime: dayjs(l.startTime),
    endTime: dayjs(l.endTime),
    reason: l.reason,
    taskUser: l.taskUser,
  }) satisfies LeaveValues;
