import { Suspense, lazy, useState } from 'react';
import { LockOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LOCK_DELAY_MS } from '@atrium/contract';
import { useSettings } from '../stores/settings';

// The dialog (Form, Modal, Input) loads on first open: the shell stays small (docs/web.md "Bundle budget").
const LockDialog = lazy(() => import('./LockDialog'));

/**
 * docs/product.md "States": lock asks for a lock password first when none is set; then locks and goes to /lock after
 * 100 ms.
 */
export default function LockButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const { lockPasswordHash, lock } = useSettings();

  // The screen locked is where unlocking returns. The lock screen takes the locked screen's place in the history (the
  // guard already replaced it): Back never reaches /lock, neither after unlocking nor after logging out.
  const doLock = () => {
    lock(location.pathname + location.search);
    setTimeout(() => navigate('/lock', { replace: true }), LOCK_DELAY_MS);
  };
  return (
    <>
      <Button
        type="text"
        icon={<LockOutlined />}
        aria-label={t('header.lock')}
        data-testid="lock"
        onClick={() => (lockPasswordHash ? doLock() : setOpen(true))}
      />
      {open && (
        <Suspense fallback={null}>
          <LockDialog onClose={() => setOpen(false)} onLock={doLock} />
        </Suspense>
      )}
    </>
  );
}
