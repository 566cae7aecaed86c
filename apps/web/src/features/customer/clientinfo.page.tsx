import './messages';
import { useCallback, useState } from 'react';
import { App, Button, Card, Drawer, Space, Tabs, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { business } from '@atrium/contract';
import { CLIENT_STATUS, clientinfo } from '@atrium/contract/resources/customer/clientinfo';
import { CrudDialog } from '../../components/crud/CrudDialog';
import { CrudSearch } from '../../components/crud/CrudSearch';
import { CrudTable } from '../../components/crud/CrudTable';
import { CrudToolbar } from '../../components/crud/CrudToolbar';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import { useCrudController } from '../../components/crud/useCrudController';
import type { CrudSchema } from '../../components/crud/types';
import { useSession } from '../../stores/session';
import { useSettings } from '../../stores/settings';
import { EmailDialog, PasswordDialog, ReviewDialog, TrackDialog } from './dialogs';
import { ApprovalHistory, ClientRecord, TrackList, type Client } from './parts';

/**
 * 客户信息 (docs/clients.md): the definition's list, with a tab for the review queue (`clientInfoVerify`); row
 * actions 详情 (record, follow-ups with their emails' delivery, approval history), 跟踪记录, 审核, 修改密码; toolbar
 * 发送邮件 and 审核 over the selection; 停用 / 启用 from the definition. Buttons by permission code.
 */

type Tab = 'all' | 'review';
type Opened =
  | { kind: 'track'; client: Client }
  | { kind: 'review'; clients: Client[] }
  | { kind: 'email'; clients: Client[] }
  | { kind: 'password'; client: Client };

const STATUS_COLOURS: Record<number, string> = { 1: 'processing', 2: 'success', 3: 'error', 4: 'default' };
const pending = (c: Client) => Number(c.status) === CLIENT_STATUS.pending;
/** An approved (or disabled) client has an account. */
const hasAccount = (c: Client) =>
  !!c.accountUserId || [CLIENT_STATUS.approved, CLIENT_STATUS.disabled].includes(Number(c.status) as 2 | 4);

export default function ClientInfoPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = useSession((s) => s.permission);
  const narrow = useSettings((s) => s.screen === 0);
  const [tab, setTab] = useState<Tab>('all');
  const [opened, setOpened] = useState<{ seq: number; what: Opened } | null>(null);
  // The detail drawer stays open under the dialogs it opens.
  const [detail, setDetail] = useState<Client | null>(null);
  const [tracksVersion, setTracksVersion] = useState(0);
  // A decision changes the record and its history: the drawer reads them again.
  const [recordVersion, setRecordVersion] = useState(0);
  const open = (what: Opened) => setOpened((o) => ({ seq: (o?.seq ?? 0) + 1, what }));
  const mayTrack = !!(can.clienttrack_add || can.clientinfo_edit);

  const adjust = useCallback(
    (s: CrudSchema<Client>): CrudSchema<Client> => ({
      ...s,
      listRoute: tab === 'review' ? business.clientInfoVerify : undefined,
      // 详情 (the drawer) replaces the plain view dialog.
      codes: { ...s.codes, view: '' },
      fields: s.fields.map((f) =>
        f.name === 'status'
          ? {
              ...f,
              render: (v: unknown) => (
                <Tag color={STATUS_COLOURS[Number(v)] ?? 'default'}>
                  {t(`clientinfo:fields.status.options.${Number(v) - 1}`)}
                </Tag>
              ),
            }
          : f,
      ),
      actions: [
        {
          code: `${clientinfo.code}_email`,
          label: 'customer.sendEmail',
          needsSelection: true,
          onClick: (rows) => open({ kind: 'email', clients: rows }),
        },
        {
          code: `${clientinfo.code}_approve`,
          label: 'customer.review',
          needsSelection: true,
          onClick: (rows) => {
            if (!rows.every(pending)) message.warning(t('customer.onlyPending'));
            else open({ kind: 'review', clients: rows });
          },
        },
      ],
      rowActions: [
        {
          code: s.codes.view,
          label: 'customer.detail',
          onClick: ([row]) => setDetail(row),
        },
        ...(mayTrack
          ? [{ label: 'customer.addTrack', onClick: ([row]: Client[]) => open({ kind: 'track', client: row }) }]
          : []),
        {
          code: `${clientinfo.code}_approve`,
          label: 'customer.review',
          when: pending,
          onClick: ([row]) => open({ kind: 'review', clients: [row] }),
        },
        {
          code: s.codes.edit,
          label: 'customer.setPassword',
          when: hasAccount,
          onClick: ([row]) => open({ kind: 'password', client: row }),
        },
      ],
      actionWidth: 380,
    }),
    [tab, t, message, mayTrack],
  );
  const schema = useResourceSchema(clientinfo, adjust);
  const c = useCrudController(schema);
  const refresh = () => void c.refresh();

  const what = opened?.what;
  return (
    <Card title={t(schema.title)} data-testid="clientinfo-page">
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k as Tab);
          c.setSelected([]);
        }}
        items={[
          { key: 'all', label: t('customer.tabAll') },
          { key: 'review', label: t('customer.tabReview') },
        ]}
      />
      <CrudSearch c={c} />
      <CrudToolbar c={c} />
      <CrudTable c={c} />
      <CrudDialog c={c} />
      {detail && (
        <Drawer
          open
          width={narrow ? '100%' : 760}
          title={detail.clientName}
          onClose={() => setDetail(null)}
          extra={
            <Space>
              {mayTrack && (
                <Button onClick={() => open({ kind: 'track', client: detail })}>{t('customer.addTrack')}</Button>
              )}
              {can[`${clientinfo.code}_approve`] && pending(detail) && (
                <Button type="primary" onClick={() => open({ kind: 'review', clients: [detail] })}>
                  {t('customer.review')}
                </Button>
              )}
            </Space>
          }
        >
          <Tabs
            items={[
              {
                key: 'record',
                label: t('customer.record'),
                children: <ClientRecord key={recordVersion} id={detail.id} />,
              },
              {
                key: 'tracks',
                label: t('customer.tracks'),
                children: <TrackList clientId={detail.id} version={tracksVersion} />,
              },
              {
                key: 'history',
                label: t('customer.history'),
                children: <ApprovalHistory referId={detail.id} version={recordVersion} />,
              },
            ]}
          />
        </Drawer>
      )}
      {what?.kind === 'track' && (
        <TrackDialog
          key={opened!.seq}
          client={what.client}
          onClose={() => setOpened(null)}
          onDone={() => setTracksVersion((v) => v + 1)}
        />
      )}
      {what?.kind === 'review' && (
        <ReviewDialog
          key={opened!.seq}
          clients={what.clients}
          onClose={() => setOpened(null)}
          onDone={(pass) => {
            setRecordVersion((v) => v + 1);
            const status = pass ? CLIENT_STATUS.approved : CLIENT_STATUS.rejected;
            setDetail((d) => (d ? { ...d, status } : d));
            c.setSelected([]);
            refresh();
          }}
        />
      )}
      {what?.kind === 'email' && (
        <EmailDialog
          key={opened!.seq}
          clients={what.clients}
          onClose={() => setOpened(null)}
          onDone={() => {
            setTracksVersion((v) => v + 1);
            c.setSelected([]);
          }}
        />
      )}
      {what?.kind === 'password' && (
        <PasswordDialog key={opened!.seq} client={what.client} onClose={() => setOpened(null)} />
      )}
    </Card>
  );
}
