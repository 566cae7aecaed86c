import { useState } from 'react';
import { BugOutlined } from '@ant-design/icons';
import { App, Badge, Button, Modal, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOG_BADGE_MAX } from '@atrium/contract';
import { sendLogs } from '../api/log';
import { badgeCount, useErrorLog } from '../stores/errorLog';

export default function ErrorLogButton() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const { logs, clear } = useErrorLog();
  const upload = async () => {
    setBusy(true);
    try {
      await sendLogs(logs.slice(0, 200));
      message.success(t('logs.sent'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Badge count={badgeCount(logs.length)} overflowCount={LOG_BADGE_MAX} size="small">
        <Button type="text" icon={<BugOutlined />} aria-label={t('header.errorLog')} onClick={() => setOpen(true)} data-testid="error-log" />
      </Badge>
      <Modal open={open} title={t('logs.title')} width={960} onCancel={() => setOpen(false)} footer={
        <Space>
          <Button onClick={() => { clear(); message.success(t('logs.cleared')); }}>{t('logs.clear')}</Button>
          <Button type="primary" loading={busy} disabled={!logs.length} onClick={() => void upload()}>{t('logs.upload')}</Button>
        </Space>
      }>
        <Table size="small" rowKey={(_, i) => String(i)} dataSource={logs} pagination={{ pageSize: 10 }} locale={{ emptyText: t('logs.empty') }} columns={[
          { title: t('logs.type'), dataIndex: 'type', width: 70 },
          { title: t('logs.url'), dataIndex: 'url', width: 200, ellipsis: true },
          { title: t('logs.message'), dataIndex: 'message', ellipsis: true },
          { title: t('logs.stack'), dataIndex: 'stack', ellipsis: true },
          { title: t('logs.time'), dataIndex: 'time', width: 170 },
        ]} />
      </Modal>
    </>
  );
}
