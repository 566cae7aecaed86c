import { Suspense, lazy } from 'react';
import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE } from '@atrium/contract';

// The demo notification list (docs/product.md "Screens and routes") loads when the bell is first opened.
const NoticePanel = lazy(() => import('./NoticePanel'));

export default function Notice() {
  const { t } = useTranslation();
  const content = (
    <Suspense
      fallback={
        <div style={{ width: NOTICE.width, textAlign: 'center' }}>
          <Spin />
        </div>
      }
    >
      <NoticePanel />
    </Suspense>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight" destroyOnHidden>
      <Badge dot>
        <Button type="text" icon={<BellOutlined />} aria-label={t('header.notice')} data-testid="notice" />
      </Badge>
    </Popover>
  );
}
