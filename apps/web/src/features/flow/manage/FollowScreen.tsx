import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Grid,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  type TableColumnsType,
} from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, flowApi, PAGE_SIZES } from '@atrium/contract';
import { call } from '../../../api/call';
import { useTabScope } from '../../../layout/tabScope';
import { useSession } from '../../../stores/session';
import { flowCalls, StatusTag, timeText, type InstanceRecord } from './common';
import { InstanceDrawer } from './InstanceDrawer';

/**
 * 流程跟踪 (docs/workflow.md "Screens"): the process instances with their current steps (`follow/list`, paged and
 * sorted by start time); 查看 opens the diagram and history, 删除 ends a running instance with a required reason
 * (`follow/delete-process-instance`, kept in its history).
 */

const DELETE = 'follow_delete';
type Status = 'running' | 'ended' | 'deleted' | 'all';
const STATUSES: Status[] = ['running', 'ended', 'deleted', 'all'];
type Sort = { field: string; order: 'ascend' | 'descend' } | null;

export function FollowScreen() {
  const { t } = useTranslation();
  const can = useSession((s) => s.permission);
  const wide = Grid.useBreakpoint().md !== false;
  const [page, setPage] = useState({ current: 1, size: DEFAULT_PAGE_SIZE });
  const [sort, setSort] = useState<Sort>(null);
  // The server lists running instances unless asked for another status.
  const [status, setStatus] = useState<Status>('running');
  const [viewing, setViewing] = useState<InstanceRecord | null>(null);
  const [deleting, setDeleting] = useState<{ seq: number; row: InstanceRecord } | null>(null);
  const queryClient = useQueryClient();
  const query = {
    current: page.current,
    size: page.size,
    status,
    ...(sort ? { [sort.order === 'ascend' ? 'ascs' : 'descs']: sort.field } : {}),
  };
  const list = useQuery({
    queryKey: ['flowManage', 'follow', query],
    queryFn: () => call(flowApi.followList, { query }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['flowManage', 'follow'] });

  const columns: TableColumnsType<InstanceRecord> = [
    { title: t('flowManage.instanceId'), dataIndex: 'processInstanceId', key: 'processInstanceId' },
    { title: t('flowManage.processName'), dataIndex: 'processDefinitionName', key: 'processDefinitionName' },
    {
      title: t('flowManage.version'),
      key: 'version',
      render: (_, r) => `v${r.processDefinitionVersion}`,
    },
    { title: t('flowManage.starter'), key: 'starter', render: (_, r) => r.startUserName ?? r.startUser },
    {
      title: t('flowManage.startTime'),
      key: 'startTime',
      sorter: true,
      sortOrder: sort?.field === 'startTime' ? sort.order : null,
      render: (_, r) => timeText(r.startTime),
    },
    {
      title: t('flowManage.currentSteps'),
      key: 'currentSteps',
      render: (_, r) => (
        <Space size={4} wrap>
          {r.currentSteps.map((s) => (
            <Tag key={s} color="blue">
              {s}
            </Tag>
          ))}
        </Space>
      ),
    },
    { title: t('flowManage.status'), key: 'status', render: (_, r) => <StatusTag status={r.status} /> },
    {
      title: t('crud.actions'),
      key: '_actions',
      fixed: wide ? 'right' : undefined,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r)}>
            {t('flowManage.view')}
          </Button>
          {can[DELETE] && r.status === 'running' && (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => setDeleting((d) => ({ seq: (d?.seq ?? 0) + 1, row: r }))}
            >
              {t('flowManage.deleteInstance')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const rows = list.data?.records ?? [];
  return (
    <Card
      title={t('flowManage.followTitle')}
      data-testid="flow-follow-page"
      extra={
        <Space>
          <Select<Status>
            aria-label={t('flowManage.status')}
            value={status}
            style={{ width: 120 }}
            options={STATUSES.map((s) => ({ value: s, label: t(`flowManage.${s}`) }))}
            onChange={(s) => {
              setStatus(s);
              setPage((p) => ({ ...p, current: 1 }));
            }}
          />
          <Button icon={<ReloadOutlined />} onClick={() => void refresh()} aria-label={t('common.refresh')} />
        </Space>
      }
    >
      {list.isError && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('flowManage.loadFailed')}
          action={<Button onClick={() => void list.refetch()}>{t('flowManage.retry')}</Button>}
        />
      )}
      <Table<InstanceRecord>
        rowKey="processInstanceId"
        size="middle"
        loading={list.isFetching}
        columns={columns}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        showHeader={wide || rows.length > 0}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: list.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (n: number) => t('crud.total', { n }),
          onChange: (current, size) => setPage({ current, size }),
        }}
        onChange={(_p, _f, sorter, extra) => {
          if (extra.action !== 'sort') return;
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setSort(s?.order ? { field: String(s.columnKey), order: s.order } : null);
          setPage((p) => ({ ...p, current: 1 }));
        }}
      />
      {viewing && <InstanceDrawer instance={viewing} onClose={() => setViewing(null)} />}
      {deleting && (
        <DeleteDialog
          key={deleting.seq}
          row={deleting.row}
          onClose={() => setDeleting(null)}
          onDone={() => {
            setDeleting(null);
            void refresh();
          }}
        />
      )}
    </Card>
  );
}

function DeleteDialog({ row, onClose, onDone }: { row: InstanceRecord; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const scope = useTabScope();
  const [form] = Form.useForm<{ deleteReason: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    let deleteReason: string;
    try {
      ({ deleteReason } = await form.validateFields());
    } catch {
      return; // the form shows what is missing
    }
    setBusy(true);
    try {
      await flowCalls.deleteInstance(row.processInstanceId, deleteReason.trim());
    } catch {
      return; // the http client showed why
    } finally {
      setBusy(false);
    }
    void message.success(t('flowManage.instanceDeleted'));
    onDone();
  };
  return (
    <Modal
      open
      title={t('flowManage.deleteInstanceTitle', { name: row.processDefinitionName })}
      okText={t('flowManage.deleteInstance')}
      okButtonProps={{ danger: true }}
      cancelText={t('flowManage.cancel')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} name={`${scope}flow-delete-instance`} layout="vertical">
        <Form.Item
          name="deleteReason"
          label={t('flowManage.deleteReason')}
          extra={t('flowManage.reasonHelp')}
          rules={[{ required: true, whitespace: true, message: t('flowManage.reasonRequired') }]}
        >
          <Input.TextArea rows={4} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
