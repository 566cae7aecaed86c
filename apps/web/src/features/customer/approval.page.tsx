import './messages';
import { useCallback, useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Drawer, Form, Input, Modal, Space, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { business } from '@atrium/contract';
import { APPROVAL_STATUS, approval } from '@atrium/contract/resources/customer/approval';
import { approvalApi, messageOf } from '../../api/customer';
import { errorOf } from '../../api/crud';
import { CrudDialog } from '../../components/crud/CrudDialog';
import { CrudSearch } from '../../components/crud/CrudSearch';
import { CrudTable } from '../../components/crud/CrudTable';
import { CrudToolbar } from '../../components/crud/CrudToolbar';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import { useCrudController } from '../../components/crud/useCrudController';
import type { CrudSchema } from '../../components/crud/types';
import { useTabScope } from '../../layout/tabScope';
import { useSession } from '../../stores/session';
import { useSettings } from '../../stores/settings';
import { APPROVAL_COLOURS, ApprovalHistory, ClientRecord, when, type Approval } from './parts';

/**
 * 客户审批 (docs/clients.md "Approvals"): 待审批 (`approvalPage`: pending, the caller may decide) and 全部 (`list`);
 * a drawer with the business object (a client's record) and its history; 通过 / 驳回 (`businessApproval`, an
 * opinion required to reject; a decided one answers 409 with the server's message). No 新增: approvals come from
 * the business (`create: false`).
 */

type Tab = 'pending' | 'all';
type Deciding = { seq: number; row: Approval; status: 1 | 2 };
const APPROVE = `${approval.code}_approve`;
const isPending = (r: Approval) => Number(r.status) === APPROVAL_STATUS.pending;

export default function ApprovalPage() {
  const { t } = useTranslation();
  const can = useSession((s) => s.permission);
  const narrow = useSettings((s) => s.screen === 0);
  const mayDecide = !!can[APPROVE];
  const [tab, setTab] = useState<Tab>(mayDecide ? 'pending' : 'all');
  const [viewing, setViewing] = useState<Approval | null>(null);
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const [version, setVersion] = useState(0);
  const decide = (row: Approval, status: 1 | 2) => setDeciding((d) => ({ seq: (d?.seq ?? 0) + 1, row, status }));

  const adjust = useCallback(
    (s: CrudSchema<Approval>): CrudSchema<Approval> => ({
      ...s,
      listRoute: tab === 'pending' ? business.approvalPage : undefined,
      codes: { ...s.codes, view: '' },
      fields: s.fields.map((f) =>
        f.name === 'status'
          ? {
              ...f,
              render: (v: unknown) => (
                <Tag color={APPROVAL_COLOURS[Number(v)] ?? 'default'}>
                  {t(`approval:fields.status.options.${Number(v)}`)}
                </Tag>
              ),
            }
          : f,
      ),
      rowActions: [
        { code: s.codes.view, label: 'customer.detail', onClick: ([row]) => setViewing(row) },
        { code: APPROVE, label: 'customer.pass', when: isPending, onClick: ([row]) => decide(row, 1) },
        { code: APPROVE, label: 'customer.reject', danger: true, when: isPending, onClick: ([row]) => decide(row, 2) },
      ],
      actionWidth: 260,
    }),
    [tab, t],
  );
  const schema = useResourceSchema(approval, adjust);
  const c = useCrudController(schema);

  return (
    <Card title={t(schema.title)} data-testid="approval-page">
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k as Tab);
          c.setSelected([]);
        }}
        items={[
          ...(mayDecide ? [{ key: 'pending', label: t('customer.tabPending') }] : []),
          { key: 'all', label: t('customer.tabAll') },
        ]}
      />
      <CrudSearch c={c} />
      <CrudToolbar c={c} />
      <CrudTable c={c} />
      <CrudDialog c={c} />
      {viewing && (
        <Drawer
          open
          width={narrow ? '100%' : 760}
          title={viewing.title}
          onClose={() => setViewing(null)}
          extra={
            mayDecide &&
            isPending(viewing) && (
              <Space>
                <Button type="primary" onClick={() => decide(viewing, 1)}>
                  {t('customer.pass')}
                </Button>
                <Button danger onClick={() => decide(viewing, 2)}>
                  {t('customer.reject')}
                </Button>
              </Space>
            )
          }
        >
          <ApprovalSummary row={viewing} />
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t(`approval:fields.referType.options.${viewing.referType === 'client' ? 0 : 1}`)}
          </Typography.Title>
          {viewing.referType === 'client' && viewing.referId ? (
            <ClientRecord key={version} id={String(viewing.referId)} />
          ) : (
            <Typography.Text type="secondary">
              {t('approval:fields.referId.label')}: {viewing.referId}
            </Typography.Text>
          )}
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('customer.history')}
          </Typography.Title>
          {viewing.referId && <ApprovalHistory referId={String(viewing.referId)} version={version} />}
        </Drawer>
      )}
      {deciding && (
        <DecisionDialog
          key={deciding.seq}
          row={deciding.row}
          status={deciding.status}
          onClose={() => setDeciding(null)}
          onDone={(status) => {
            setDeciding(null);
            setVersion((v) => v + 1);
            // Decided elsewhere (409): the drawer's row is stale; close it.
            setViewing((v) => (v && v.id === deciding.row.id ? (status === null ? null : { ...v, status }) : v));
            void c.refresh();
          }}
        />
      )}
    </Card>
  );
}

function ApprovalSummary({ row }: { row: Approval }) {
  const { t } = useTranslation();
  const label = (name: keyof typeof approval.fields) => t(`approval:fields.${name}.label`);
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
      <Descriptions.Item label={label('status')}>
        <Tag color={APPROVAL_COLOURS[Number(row.status)]}>
          {t(`approval:fields.status.options.${Number(row.status)}`)}
        </Tag>
      </Descriptions.Item>
      <Descriptions.Item label={label('submitTime')}>{when(row.submitTime)}</Descriptions.Item>
      <Descriptions.Item label={label('applicantName')}>{row.applicantName}</Descriptions.Item>
      <Descriptions.Item label={label('applicantPhone')}>{row.applicantPhone}</Descriptions.Item>
      {row.approverName && <Descriptions.Item label={label('approverName')}>{row.approverName}</Descriptions.Item>}
      {row.approveTime && <Descriptions.Item label={label('approveTime')}>{when(row.approveTime)}</Descriptions.Item>}
      {row.opinion && <Descriptions.Item label={label('opinion')}>{row.opinion}</Descriptions.Item>}
    </Descriptions>
  );
}

/** 通过 / 驳回 of one application; the opinion is required to reject; a 409 (decided meanwhile) is shown here. */
function DecisionDialog({
  row,
  status,
  onClose,
  onDone,
}: {
  row: Approval;
  status: 1 | 2;
  onClose: () => void;
  /** The new status, or null when someone else decided meanwhile. */
  onDone: (status: number | null) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const scope = useTabScope();
  const [form] = Form.useForm<{ opinion?: string }>();
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const reject = status === 2;
  const ok = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    setRefused(null);
    try {
      await approvalApi.decide(row.id, status, v.opinion?.trim() || undefined);
      message.success(t(reject ? 'customer.rejected' : 'customer.approved'));
      onDone(status);
    } catch (err) {
      // 409: decided by someone else meanwhile (the server's message); other refusals were shown by the http client.
      if (errorOf(err).status === 409) setRefused(messageOf(err) || t('customer.decided'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`${t(reject ? 'customer.reject' : 'customer.pass')} · ${row.title ?? ''}`}
      onCancel={onClose}
      onOk={() => (refused ? onDone(null) : void ok())}
      confirmLoading={saving}
      okText={refused ? t('common.ok') : t('common.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: reject && !refused }}
    >
      {refused && <Alert type="warning" showIcon message={refused} style={{ marginBottom: 12 }} role="alert" />}
      <Form form={form} name={`${scope}approval-decision`} layout="vertical">
        <Form.Item
          name="opinion"
          label={t('customer.opinion')}
          rules={[
            { max: 500 },
            ...(reject ? [{ required: true, whitespace: true, message: t('customer.opinionRequired') }] : []),
          ]}
        >
          <Input.TextArea rows={4} maxLength={500} showCount disabled={!!refused} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
