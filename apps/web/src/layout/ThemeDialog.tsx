import { CheckOutlined } from '@ant-design/icons';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { THEMES } from '@atrium/contract';
import { useSettings } from '../stores/settings';
import { LOOKS } from '../theme/themes';

/** The theme dialog: a lazy chunk of `ThemePicker`, so Modal loads at its first open (docs/web.md "Bundle budget"). */
export default function ThemeDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { theme, setTheme } = useSettings();
  return (
    <Modal open title={t('header.theme')} footer={null} onCancel={onClose} width={640}>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: 12 }}>
        {THEMES.map((name) => {
          const look = LOOKS[name];
          const active = theme === `theme-${name}`;
          return (
            <div
              key={name}
              data-theme-option={`theme-${name}`}
              onClick={() => setTheme(`theme-${name}`)}
              style={{
                cursor: 'pointer',
                border: `2px solid ${active ? '#409EFF' : 'transparent'}`,
                borderRadius: 6,
                padding: 4,
              }}
            >
              <div
                style={{ display: 'flex', height: 56, borderRadius: 4, overflow: 'hidden', border: '1px solid #ddd' }}
              >
                <div style={{ width: 18, background: look.sider }} />
                <div style={{ flex: 1, display: 'flex', flexDirection: 'column' }}>
                  <div style={{ height: 12, background: look.header }} />
                  <div style={{ flex: 1, background: look.content }} />
                </div>
              </div>
              <div style={{ textAlign: 'center', fontSize: 12, marginTop: 4 }}>
                {active && <CheckOutlined />} {t(`themes.${name}`)}
              </div>
            </div>
          );
        })}
      </div>
    </Modal>
  );
}
