import { useState } from 'react';
import { App, Button, Modal, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { sendLogs } from '../api/log';
import { useErrorLog } from '../stores/errorLog';

export default function ErrorLogDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
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
    <Modal
      open
      title={t('logs.title')}
      width={960}
      onCancel={onClose}
      footer={
        <Space>
          <Button
            onClick={() => {
              clear();
              message.success(t('logs.cleared'));
            }}
          >
            {t('logs.clear')}
          </Button>
          <Button type="primary" loading={busy} disabled={!logs.length} onClick={() => void upload()}>
            {t('logs.upload')}
          </Button>
        </Space>
      }
    >
      <Table
        size="small"
        rowKey={(_, i) => String(i)}
        dataSource={logs}
        pagination={{ pageSize: 10 }}
        locale={{ emptyText: t('logs.empty') }}
        columns={[
          { title: t('logs.type'), dataIndex: 'type', width: 70 },
          { title: t('logs.url'), dataIndex: 'url', width: 200, ellipsis: true },
          { title: t('logs.message'), dataIndex: 'message', ellipsis: true },
          { title: t('logs.stack'), dataIndex: 'stack', ellipsis: true },
          { title: t('logs.time'), dataIndex: 'time', width: 170 },
        ]}
      />
    </Modal>
  );
}
