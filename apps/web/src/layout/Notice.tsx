import { Suspense, lazy, useState } from 'react';
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE } from '@atrium/contract';
import { useWaiting } from './useWaiting';

// The demo notification list (docs/product.md "Screens and routes") loads when the bell is first opened.
const NoticePanel = lazy(() => import('./NoticePanel'));

/** The bell: the count of tasks waiting for the user (docs/workflow.md "Screens: my work and leave") and the panel. */
export default function Notice() {
  const { t } = useTranslation();
  const waiting = useWaiting();
  const [open, setOpen] = useState(false);
  const content = (
    <Suspense
      fallback={
        <div style={{ width: NOTICE.width, textAlign: 'center' }}>
          <Spin />
        </div>
      }
    >
      <NoticePanel waiting={waiting} onNavigate={() => setOpen(false)} />
    </Suspense>
  );
  const label = waiting.total
    ? `${t('header.notice')} · ${t('notice.waiting', { count: waiting.total })}`
    : t('header.notice');
  return (
    <Popover
      content={content}
      trigger="click"
      placement="bottomRight"
      destroyOnHidden
      open={open}
      onOpenChange={setOpen}
    >
      <Badge count={waiting.total} size="small" overflowCount={99} data-testid="notice-badge">
        <Button type="text" icon={<BellOutlined />} aria-label={label} data-testid="notice" />
      </Badge>
    </Popover>
  );
}
