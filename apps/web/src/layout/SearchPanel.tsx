import { useEffect, useState } from 'react';
import { Input, List } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMenu } from '../stores/menu';
import { searchMenus } from '../stores/menuRoutes';
import { useSettings } from '../stores/settings';
import { menuLabel } from './Sidebar';
import { menuIcon } from './icons';
import EmptyState from '../components/EmptyState';

/** Menu search (docs/product.md "Screens and routes"): prefix, case-insensitive; Esc closes it. While shown, the main view is hidden. */
export default function SearchPanel() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const allMenus = useMenu((s) => s.allMenus);
  const setShowSearch = useSettings((s) => s.setShowSearch);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setShowSearch(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setShowSearch]);
  const found = searchMenus(allMenus, text);
  return (
    <div className="atrium-search-panel" data-testid="search-panel">
      <Input.Search
        autoFocus
        size="large"
        placeholder={t('header.searchPlaceholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        allowClear
      />
      {text.trim() &&
        (found.length ? (
          <List
            style={{ marginTop: 16 }}
            dataSource={found}
            renderItem={(m) => (
              <List.Item
                style={{ cursor: 'pointer' }}
                onClick={() => {
                  setShowSearch(false);
                  navigate(m.path);
                }}
              >
                <List.Item.Meta avatar={menuIcon(m.icon)} title={menuLabel(m, i18n.language)} description={m.path} />
              </List.Item>
            )}
          />
        ) : (
          <EmptyState style={{ marginTop: 32 }} description={t('header.noMatch')} />
        ))}
    </div>
  );
}
