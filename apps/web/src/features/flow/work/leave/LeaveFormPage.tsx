import { useState } from 'react';
import { App, Button, Card, Form } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useTabScope } from '../../../../layout/tabScope';
import { workApi } from '../api';
import LeaveFields, { leaveBody, type LeaveValues } from './LeaveFields';
import '../texts';

/** The leave start form (`/work/process/leave/form/:processDefinitionId`): files the request and starts its process. */
export default function LeaveFormPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const nav = useNavigate();
  const client = useQueryClient();
  const scope = useTabScope();
  const { processDefinitionId = '' } = useParams();
  const [form] = Form.useForm<LeaveValues>();
  const [busy, setBusy] = useState(false);
  const submit = async (values: LeaveValues) => {
    setBusy(true);
    try {
      const stored = await workApi.leaveStart({ processDefinitionId, ...leaveBody(values) });
      // The server's figure, not the estimate.
      message.success(t('flowWork.submitted', { days: stored.days }));
      void client.invalidateQueries({ queryKey: ['flow-work'] });
      // The tab stays kept alive: a return to it starts a new request, not this one again.
      form.resetFields();
      nav('/work/send/index');
    } catch {
      // The http client has shown the server's refusal.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card variant="borderless" title={t('flowWork.leaveTitle')}>
      <Form<LeaveValues>
        form={form}
        name={`${scope}leave-form`}
        layout="vertical"
        style={{ maxWidth: 640 }}
        onFinish={(v) => void submit(v)}
      >
        <LeaveFields form={form} />
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('flowWork.submit')}
        </Button>
      </Form>
    </Card>
  );
}
