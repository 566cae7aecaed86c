import { Menu, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMenu } from '../stores/menu';
import { flatten, type MenuItem } from '../stores/menuRoutes';
import { useSettings } from '../stores/settings';
import { menuIcon } from './icons';

export const menuLabel = (m: MenuItem, lang: string) => (lang === 'en' ? m.alias || m.name : m.name);

function toItems(menus: MenuItem[], lang: string): MenuProps['items'] {
  return menus.map((m) =>
    m.children.length
      ? { key: `sub:${m.id}`, icon: menuIcon(m.icon), label: menuLabel(m, lang), children: toItems(m.children, lang) }
      : { key: m.path || `leaf:${m.id}`, icon: menuIcon(m.icon), label: menuLabel(m, lang) },
  );
}

export default function Sidebar() {
  const { menus } = useMenu();
  const { collapse, screen, toggleCollapse } = useSettings();
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const all = flatten(menus);
  const openKeys = all
    .filter((m) => m.children.length && flatten(m.children).some((c) => c.path === pathname))
    .map((m) => `sub:${m.id}`);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = all.find((m) => m.path === key);
    if (item?.isOpen === 2 && /^https?:/i.test(item.source)) window.open(item.source, '_blank', 'noopener');
    else navigate(key);
    if (screen === 0) toggleCollapse();
  };

  return (
    <aside className={`atrium-sider${collapse ? ' collapsed' : ''}`} data-testid="sidebar">
      <div className="atrium-logo">
        <img src="/favicon.svg" width={28} height={28} alt="" />
        {!collapse && <span>Atrium</span>}
      </div>
      <Menu
        mode="inline"
        inlineCollapsed={collapse && screen > 0}
        theme="dark"
        selectedKeys={[pathname]}
        defaultOpenKeys={openKeys}
        items={toItems(menus, i18n.language)}
        onClick={onClick}
      />
    </aside>
  );
}
