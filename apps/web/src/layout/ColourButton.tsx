import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../stores/settings';

// antd's ColorPicker is heavy; it loads when the swatch is first clicked.
const ColourPicker = lazy(() => import('./ColourPicker'));

export default function ColourButton() {
  const { t } = useTranslation();
  const colour = useSettings((s) => s.colour);
  const [active, setActive] = useState(false);
  if (active)
    return (
      <Suspense fallback={null}>
        <ColourPicker />
      </Suspense>
    );
  return (
    <button
      type="button"
      aria-label={t('header.colour')}
      title={t('header.colour')}
      data-testid="colour"
      onClick={() => setActive(true)}
      style={{
        width: 24,
        height: 24,
        border: '1px solid #d9d9d9',
        borderRadius: 4,
        background: colour,
        cursor: 'pointer',
        padding: 0,
      }}
    />
  );
}
