import { Descriptions, Drawer, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { logApi, type AnswerOf } from '@atrium/contract';
import { call } from '../../../api/call';
import { timeText } from './common';
import { LogList } from './LogList';

/**
 * 错误日志 (docs/web.md "Log screens"): the error-log entries the tenant's consoles uploaded (`error/list`), newest
 * first, by type, address, account and time; 查看 shows the stack and the browser.
 */

type ErrorRecord = AnswerOf<typeof logApi.errorList>['records'][number];

export function ErrorScreen() {
  const { t } = useTranslation();
  return (
    <LogList<ErrorRecord>
      kind="error"
      route={logApi.errorList}
      title={t('logView.errorTitle')}
      filters={[
        { name: 'type', label: t('logView.type') },
        { name: 'url', label: t('logView.url') },
        { name: 'account', label: t('logView.account') },
      ]}
      columns={[
        { title: t('logView.type'), key: 'type', render: (_, r) => <Tag color="red">{r.type}</Tag> },
        { title: t('logView.url'), dataIndex: 'url', key: 'url' },
        {
          title: t('logView.message'),
          key: 'message',
          render: (_, r) => (
            <Typography.Text ellipsis={{ tooltip: r.message }} style={{ maxWidth: 360 }}>
              {r.message}
            </Typography.Text>
          ),
        },
      ]}
      drawer={(row, onClose) => <ErrorDrawer row={row} onClose={onClose} />}
    />
  );
}

function ErrorDrawer({ row, onClose }: { row: ErrorRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: ['logView', 'errorDetail', row.id],
    queryFn: () => call(logApi.errorDetail, { query: { id: row.id } }),
    retry: false,
  });
  const d = detail.data;
  return (
    <Drawer open size={720} title={t('logView.errorDetail')} onClose={onClose} data-testid="error-detail">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('logView.time')}>{timeText(row.createTime)}</Descriptions.Item>
        <Descriptions.Item label={t('logView.clientTime')}>{row.clientTime ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('logView.type')}>{row.type}</Descriptions.Item>
        <Descriptions.Item label={t('logView.url')}>{row.url ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('logView.user')}>{row.account ?? row.userId ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('logView.message')}>
          <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{row.message}</pre>
        </Descriptions.Item>
        <Descriptions.Item label={t('logView.stack')}>
          <pre style={{ whiteSpace: 'pre-wrap', margin: 0, fontSize: 12 }}>{d?.stack ?? ''}</pre>
        </Descriptions.Item>
        <Descriptions.Item label={t('logView.userAgent')}>{d?.userAgent ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('logView.requestId')}>{d?.requestId ?? ''}</Descriptions.Item>
      </Descriptions>
    </Drawer>
  );
}
