import './messages';
import { useEffect, useState } from 'react';
import { Alert, Descriptions, Image, Spin, Tag, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { approval } from '@atrium/contract/resources/customer/approval';
import { crudApi } from '../../api/crud';
import { approvalApi, clientApi, type ApprovalRecord, type TrackRecord } from '../../api/customer';
import { CellValue } from '../../components/crud/cells';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import { registerResourceTexts, type RecordOf } from '../../components/crud/fromDefinition';
import { DATE_FORMAT } from '../../components/crud/formats';
import { useFieldSources } from '../../components/crud/sources';
import EmptyState from '../../components/EmptyState';

/** Pieces shared by the client and approval screens: a client's record, its follow-ups, an object's approvals. */

export type Client = RecordOf<typeof clientinfo.fields>;
export type Approval = RecordOf<typeof approval.fields>;
export const clientCrud = crudApi(clientinfo.base, clientinfo.listPath);
registerResourceTexts(clientinfo);
registerResourceTexts(approval);

export const when = (v: unknown) => (v ? dayjs(String(v)).format(DATE_FORMAT) : '');

export const APPROVAL_COLOURS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error', 3: 'default' };
const EMAIL_COLOURS: Record<number, string> = { 1: 'processing', 2: 'success', 3: 'error' };
const TRACK_COLOURS: Record<number, string> = { 1: 'blue', 2: 'green', 3: 'purple', 4: 'orange' };

/** Every field of a client as label / value, the licence as an image. */
export function ClientRecord({ id, record: given }: { id: string; record?: Client }) {
  const { t } = useTranslation();
  const schema = useResourceSchema(clientinfo);
  const sources = useFieldSources(schema.fields);
  const [record, setRecord] = useState<Client | null>(given ?? null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    clientCrud
      .detail<Client>(id)
      .then((r) => live && setRecord(r))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [id]);
  if (!record) return failed ? <Alert type="warning" showIcon message={t('customer.clientGone')} /> : <Spin />;
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
      {schema.fields
        .filter((f) => f.name !== 'createTime')
        .map((f) => (
          <Descriptions.Item key={f.name} label={t(f.label)}>
            {f.name === 'licenceAttachId' && typeof record.licenceAttachId === 'string' && record.licenceAttachId ? (
              <Image src={record.licenceAttachId} width={120} alt={t(f.label)} />
            ) : (
              <CellValue f={f} value={record[f.name]} row={record} labels={sources.labels[f.name]} t={t} />
            )}
          </Descriptions.Item>
        ))}
      <Descriptions.Item label={t('crud.createTime')}>{when(record.createTime)}</Descriptions.Item>
    </Descriptions>
  );
}

/** A client's follow-ups, newest first (as the server answers them); an email with its delivery state. */
export function TrackList({ clientId, version }: { clientId: string; version: number }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<TrackRecord[] | null>(null);
  useEffect(() => {
    let live = true;
    clientApi
      .tracks(clientId)
      .then((r) => live && setRows(r))
      .catch(() => live && setRows([]));
    return () => {
      live = false;
    };
  }, [clientId, version]);
  if (!rows) return <Spin />;
  if (!rows.length) return <EmptyState description={t('customer.noTracks')} />;
  return (
    <Timeline
      items={rows.map((r) => ({
        key: r.id,
        color: TRACK_COLOURS[r.trackType] ?? 'gray',
        children: (
          <div data-testid="track-record">
            <div>
              <Tag color={TRACK_COLOURS[r.trackType]}>{t(`customer.trackType.${r.trackType}`)}</Tag>
              <Typography.Text type="secondary">
                {when(r.trackTime)}
                {r.trackerName ? ` · ${r.trackerName}` : ''}
              </Typography.Text>
            </div>
            <div style={{ whiteSpace: 'pre-wrap', marginTop: 4 }}>{r.content}</div>
            {r.trackType === 3 && r.outboxId && (
              <div style={{ marginTop: 4 }}>
                <Tag color={EMAIL_COLOURS[Number(r.emailStatus)] ?? 'default'}>
                  {t(`customer.emailStatus.${r.emailStatus ?? 1}`)}
                </Tag>
                {r.emailError && <Typography.Text type="danger">{r.emailError}</Typography.Text>}
              </div>
            )}
            {r.nextTrackTime && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('customer.nextTrack')}: {when(r.nextTrackTime)}
              </Typography.Text>
            )}
          </div>
        ),
      }))}
    />
  );
}

/** One business object's approvals, oldest first. */
export function ApprovalHistory({ referId, version = 0 }: { referId: string; version?: number }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<ApprovalRecord[] | null>(null);
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    let live = true;
    setRefused(false);
    approvalApi
      .history(referId)
      .then((r) => live && setRows(r))
      .catch(() => {
        if (!live) return;
        setRows([]);
        setRefused(true);
      });
    return () => {
      live = false;
    };
  }, [referId, version]);
  if (!rows) return <Spin />;
  if (refused) return <Alert type="info" showIcon message={t('customer.historyRefused')} />;
  if (!rows.length) return <EmptyState description={t('customer.noHistory')} />;
  return (
    <Timeline
      items={rows.map((r) => ({
        key: r.id,
        color: r.status === 1 ? 'green' : r.status === 2 ? 'red' : r.status === 0 ? 'blue' : 'gray',
        children: (
          <div data-testid="approval-record">
            <div>
              <Tag color={APPROVAL_COLOURS[r.status]}>{t(`approval:fields.status.options.${r.status}`)}</Tag>
              <Typography.Text type="secondary">
                {t('approval:fields.submitTime.label')}: {when(r.submitTime)}
              </Typography.Text>
            </div>
            {r.approveTime && (
              <div>
                {r.approverName} · {when(r.approveTime)}
              </div>
            )}
            {r.opinion && <div style={{ whiteSpace: 'pre-wrap' }}>{r.opinion}</div>}
          </div>
        ),
      }))}
    />
  );
}
