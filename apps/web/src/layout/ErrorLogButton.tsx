import { Suspense, lazy, useState } from 'react';
import { BugOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOG_BADGE_MAX } from '@atrium/contract';
import { badgeCount, useErrorLog } from '../stores/errorLog';

// The dialog (a Table) loads on first open: the shell stays small.
const ErrorLogDialog = lazy(() => import('./ErrorLogDialog'));

export default function ErrorLogButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const count = useErrorLog((s) => s.logs.length);
  return (
    <>
      <Badge count={badgeCount(count)} overflowCount={LOG_BADGE_MAX} size="small">
        <Button
          type="text"
          icon={<BugOutlined />}
          aria-label={t('header.errorLog')}
          onClick={() => setOpen(true)}
          data-testid="error-log"
        />
      </Badge>
      {open && (
        <Suspense fallback={null}>
          <ErrorLogDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
