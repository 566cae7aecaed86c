import { useEffect, useMemo, useRef, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMenu } from '../stores/menu';
import { flatten, type MenuItem } from '../stores/menuRoutes';
import { useSettings } from '../stores/settings';
import { menuIcon } from './icons';
import { menuLabel, mergeOpen, openKeysFor, subKey } from './sidebarKeys';

export { menuLabel };

function toItems(menus: MenuItem[], lang: string): MenuProps['items'] {
  return menus.map((m) =>
    m.children.length
      ? { key: subKey(m), icon: menuIcon(m.icon), label: menuLabel(m, lang), children: toItems(m.children, lang) }
      : { key: m.path || `leaf:${m.id}`, icon: menuIcon(m.icon), label: menuLabel(m, lang) },
  );
}

/** The opened submenu's animation moves the selected item; it is brought into view once it has settled. */
const SCROLL_AFTER_MS = 300;

export default function Sidebar() {
  const menus = useMenu((s) => s.menus);
  const { collapse, screen, menuOpen, setMenuOpen } = useSettings();
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const aside = useRef<HTMLElement>(null);
  // On a phone the sidebar is a drawer over the content; elsewhere it sits beside it, narrow when collapsed.
  const drawer = screen === 0;
  const inlineCollapsed = collapse && !drawer;

  // The menus arrive after the first render (a reload or a deep link): the current page's submenus open
  // whenever the page or the menus change, and the ones the user opened stay open.
  const wanted = useMemo(() => openKeysFor(menus, pathname), [menus, pathname]);
  const [openKeys, setOpenKeys] = useState(wanted);
  const [seen, setSeen] = useState(wanted);
  if (seen !== wanted) {
    setSeen(wanted);
    setOpenKeys((open) => mergeOpen(open, wanted));
  }
  // A collapsed menu shows submenus as pop-ups; their open state is kept apart so none pops up by itself.
  const [popupKeys, setPopupKeys] = useState<string[]>([]);
  const [wasCollapsed, setWasCollapsed] = useState(inlineCollapsed);
  if (wasCollapsed !== inlineCollapsed) {
    setWasCollapsed(inlineCollapsed);
    setPopupKeys([]);
  }

  useEffect(() => {
    const id = setTimeout(() => {
      const list = aside.current?.querySelector<HTMLElement>('.ant-menu-root');
      const item = list?.querySelector<HTMLElement>('.ant-menu-item-selected');
      if (!list || !item) return;
      const top = item.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
      if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }, SCROLL_AFTER_MS);
    return () => clearTimeout(id);
  }, [pathname, menus]);

  const all = flatten(menus);
  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = all.find((m) => m.path === key);
    if (item?.isOpen === 2 && /^https?:/i.test(item.source)) window.open(item.source, '_blank', 'noopener');
    else navigate(key);
    if (drawer) setMenuOpen(false);
  };

  const cls = drawer ? ` drawer${menuOpen ? ' open' : ''}` : collapse ? ' collapsed' : '';
  return (
    <aside ref={aside} className={`atrium-sider${cls}`} data-testid="sidebar">
      <div className="atrium-logo">
        <img src="/favicon.svg" width={28} height={28} alt="" />
        {!inlineCollapsed && <span>Atrium</span>}
      </div>
      <Menu
        mode="inline"
        inlineCollapsed={inlineCollapsed}
        theme="dark"
        selectedKeys={[pathname]}
        openKeys={inlineCollapsed ? popupKeys : openKeys}
        onOpenChange={inlineCollapsed ? setPopupKeys : setOpenKeys}
        items={toItems(menus, i18n.language)}
        onClick={onClick}
      />
    </aside>
  );
}
