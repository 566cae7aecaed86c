import { Alert, Modal, Skeleton, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { deskApi } from '@atrium/contract';
import { NOTICE_STATES } from '@atrium/contract/resources/desk/notice';
import { call } from '../../api/call';
import { DATE_FORMAT } from '../../components/crud/formats';
import './notice.css';

/**
 * The read view of one notice (docs/notices.md "Read view"): its title, release time and author, and its content as
 * the server sanitised it on save (docs/notices.md "Sanitiser") — the only HTML the console inserts as such.
 */
export default function NoticeReader({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['notice-read', id],
    enabled: !!id,
    queryFn: () => call(deskApi.read, { query: { id: id! } }),
  });
  const n = q.data;
  return (
    <Modal
      open={!!id}
      onCancel={onClose}
      footer={null}
      width={760}
      destroyOnHidden
      title={n ? n.title : t('notice.read')}
      data-testid="notice-reader"
    >
      {q.isLoading && <Skeleton active />}
      {q.isError && <Alert type="error" showIcon message={(q.error as Error).message} />}
      {n && (
        <article data-testid="notice-read">
          <Typography.Text type="secondary">
            {t('notice.released', { time: dayjs(n.releaseTime).format(DATE_FORMAT) })}
            {n.createUserName ? ` · ${t('notice.author', { name: n.createUserName })}` : ''}
          </Typography.Text>
          {n.status === NOTICE_STATES.draft && <Tag style={{ marginLeft: 8 }}>{t('notice.draft')}</Tag>}
          <div
            className="notice-content"
            data-testid="notice-content"
            // Sanitised by the server on every save (apps/server/src/modules/notice/sanitise.ts).
            dangerouslySetInnerHTML={{ __html: n.content }}
          />
        </article>
      )}
    </Modal>
  );
}
