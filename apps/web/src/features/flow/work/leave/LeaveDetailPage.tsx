import { Alert, Button, Card, Col, Row, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { FlowViewer } from '../../index';
import { workApi } from '../api';
import { HistoryTimeline, LeaveSummary } from './LeaveView';
import { useLeave } from './useLeave';
import '../texts';

/** The diagram of an instance with its done and current steps (process/diagram). */
export function InstanceDiagram({ processInstanceId }: { processInstanceId: string }) {
  const { t } = useTranslation();
  const d = useQuery({
    queryKey: ['flow-diagram', processInstanceId],
    queryFn: () => workApi.diagram(processInstanceId),
    enabled: !!processInstanceId,
  });
  if (d.isPending) return <Spin />;
  if (d.isError) return <Alert type="warning" showIcon title={t('flowWork.loadFailed')} />;
  return <FlowViewer xml={d.data.xml} doneIds={d.data.done} currentIds={d.data.current} height={360} />;
}

/** Loading, not found and failed states of a leave screen. */
export function LeaveState({ q }: { q: ReturnType<typeof useLeave> }) {
  const { t } = useTranslation();
  if (q.isPending) return <Spin style={{ margin: 48 }} />;
  if (q.missing) return <Alert type="warning" showIcon title={t('flowWork.notFound')} />;
  return (
    <Alert
      type="error"
      showIcon
      title={t('flowWork.loadFailed')}
      action={
        <Button size="small" onClick={() => void q.refetch()}>
          {t('flowWork.retry')}
        </Button>
      }
    />
  );
}

/** The leave detail (`/work/process/leave/detail/:processInstanceId/:businessId`): request, history, diagram. */
export default function LeaveDetailPage() {
  const { t } = useTranslation();
  const { processInstanceId = '', businessId = '' } = useParams();
  const q = useLeave(businessId);
  if (!q.data)
    return (
      <Card variant="borderless">
        <LeaveState q={q} />
      </Card>
    );
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <Card variant="borderless" title={t('flowWork.request')}>
          <LeaveSummary leave={q.data} />
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card variant="borderless" title={t('flowWork.history')}>
          <HistoryTimeline steps={q.data.history} />
        </Card>
      </Col>
      <Col span={24}>
        <Card variant="borderless" title={t('flowWork.diagram')}>
          <InstanceDiagram processInstanceId={processInstanceId || q.data.processInstanceId} />
        </Card>
      </Col>
    </Row>
  );
}
