import { Suspense, lazy, useState } from 'react';
import { BgColorsOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

// The dialog (antd Modal) loads on first open: the shell stays small (docs/web.md "Bundle budget").
const ThemeDialog = lazy(() => import('./ThemeDialog'));

export default function ThemePicker() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="text"
        icon={<BgColorsOutlined />}
        aria-label={t('header.theme')}
        onClick={() => setOpen(true)}
        data-testid="theme-picker"
      />
      {open && (
        <Suspense fallback={null}>
          <ThemeDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
