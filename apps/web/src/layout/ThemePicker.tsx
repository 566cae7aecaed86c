import { useState } from 'react';
import { BgColorsOutlined, CheckOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { THEMES } from '@atrium/contract';
import { useSettings } from '../stores/settings';
import { LOOKS } from '../theme/themes';

export default function ThemePicker() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { theme, setTheme } = useSettings();
  return (
    <>
      <Button
        type="text"
        icon={<BgColorsOutlined />}
        aria-label={t('header.theme')}
        onClick={() => setOpen(true)}
        data-testid="theme-picker"
      />
      <Modal open={open} title={t('header.theme')} footer={null} onCancel={() => setOpen(false)} width={640}>
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
    </>
  );
}
