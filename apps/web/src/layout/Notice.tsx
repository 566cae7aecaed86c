import { Suspense, lazy, useRef, useState } from 'react';
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE } from '@atrium/contract';
import { useBell } from './useBell';

// The bell's list (docs/notices.md "The bell") loads when the bell is first opened.
const NoticePanel = lazy(() => import('./NoticePanel'));
// The read view (and its CSS) loads when a notice is first opened from the bell.
const NoticeReader = lazy(() => import('../features/desk/NoticeReader'));

/**
 * The bell: the count of tasks waiting for the user, a dot when something in it is unread (docs/notices.md "The
 * bell"), and the panel; opening it marks everything seen.
 */
export default function Notice() {
  const { t } = useTranslation();
  const bell = useBell();
  const [open, setOpen] = useState(false);
  const [reading, setReading] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  // On a narrow screen the panel, right-aligned under the bell, would reach past the left edge: it is moved right to
  // stay 8 px inside the window (its arrow then hidden).
  const [shift, setShift] = useState(0);
  const onOpenChange = (next: boolean) => {
    if (next && button.current) {
      const right = button.current.getBoundingClientRect().right;
      const outer = Math.min(NOTICE.width, window.innerWidth - 32) + 24; // the popover's padding: 12 px a side
      setShift(Math.max(0, Math.min(8 + outer - right, window.innerWidth - 8 - right)));
    }
    setOpen(next);
    if (next) void bell.markSeen();
  };
  const content = (
    <Suspense
      fallback={
        <div style={{ width: NOTICE.width, textAlign: 'center' }}>
          <Spin />
        </div>
      }
    >
      <NoticePanel
        bell={bell.data}
        onNavigate={() => setOpen(false)}
        onRead={(id) => {
          setOpen(false);
          setReading(id);
        }}
      />
    </Suspense>
  );
  const label = bell.waiting
    ? `${t('header.notice')} · ${t('notice.waiting', { count: bell.waiting })}`
    : t('header.notice');
  const unread = bell.unread ? t('notice.unread', { count: bell.unread }) : undefined;
  return (
    <>
      <Popover
        content={content}
        trigger="click"
        placement="bottomRight"
        align={shift ? { offset: [shift, 4] } : undefined}
        arrow={!shift}
        destroyOnHidden
        open={open}
        onOpenChange={onOpenChange}
      >
        <Badge
          count={bell.waiting || undefined}
          dot={!bell.waiting && bell.unread > 0}
          title={unread}
          size="small"
          overflowCount={99}
          data-testid="notice-badge"
          data-unread={bell.unread}
        >
          <Button
            ref={button}
            type="text"
            icon={<BellOutlined />}
            aria-label={label}
            aria-description={unread}
            data-testid="notice"
          />
        </Badge>
      </Popover>
      {reading && (
        <Suspense fallback={null}>
          <NoticeReader id={reading} onClose={() => setReading(null)} />
        </Suspense>
      )}
    </>
  );
}
