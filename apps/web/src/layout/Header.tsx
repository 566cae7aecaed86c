import { useEffect, useState } from 'react';
import {
  CompressOutlined,
  ExpandOutlined,
  GlobalOutlined,
  HomeOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  MoreOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { App, Avatar, Button, Dropdown, Menu, Popover, Space } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DROPDOWN_OPEN_MS, website, type Language } from '@atrium/contract';
import { logout } from '../api/auth';
import { highlightedTopMenu, useMenu } from '../stores/menu';
import { useSession } from '../stores/session';
import { useSettings } from '../stores/settings';
import { seededName } from '../i18n/seeded';
import ErrorLogButton from './ErrorLogButton';
import ColourButton from './ColourButton';
import LockButton from './LockButton';
import Notice from './Notice';
import ThemePicker from './ThemePicker';
import { menuIcon } from './icons';

const DEFAULT_AVATAR = '/avatar.svg';

function UserMenu() {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const { userInfo, fromMap, mapReturnUrl } = useSession();
  const [open, setOpen] = useState(false);
  const confirmLogout = () =>
    modal.confirm({
      title: t('header.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await logout().catch(() => undefined);
        useSession.getState().logoutLocal();
        // Replace: Back must not return to the page of the ended session.
        navigate('/login', { replace: true });
      },
    });
  const items = fromMap
    ? [
        { key: 'dashboard', label: t('header.dashboard') },
        { key: 'return', label: t('header.returnApp') },
      ]
    : [
        { key: 'dashboard', label: t('header.dashboard') },
        { key: 'info', label: t('header.info') },
        { type: 'divider' as const },
        { key: 'logout', label: t('header.logout') },
      ];
  const onClick = ({ key }: { key: string }) => {
    setOpen(false);
    if (key === 'dashboard') navigate('/wel/dashboard');
    if (key === 'info') navigate('/info/index');
    if (key === 'logout') confirmLogout();
    if (key === 'return') window.location.assign(mapReturnUrl || '/');
  };
  const name = seededName(userInfo?.realName || userInfo?.name || userInfo?.account || '', i18n.language);
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (
    <Dropdown menu={{ items, onClick }} open={open} onOpenChange={setOpen} trigger={['click']}>
      <div
        className="atrium-user"
        data-testid="user-menu"
        title={name}
        onMouseEnter={() => {
          timer = setTimeout(() => setOpen(true), DROPDOWN_OPEN_MS);
        }}
        onMouseLeave={() => clearTimeout(timer)}
      >
        <Avatar size="small" src={userInfo?.avatar || DEFAULT_AVATAR} style={{ flex: 'none' }} />
        <span className="atrium-user-name">{name}</span>
      </div>
    </Dropdown>
  );
}

function LangSwitch() {
  const { t } = useTranslation();
  const { language, setLanguage } = useSettings();
  const languages: { key: Language; label: string }[] = [
    { key: 'zh', label: t('languages.zh') },
    { key: 'en', label: t('languages.en') },
  ];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: languages.map((l) => ({ key: l.key, label: l.label, disabled: l.key === language })),
        onClick: ({ key }) => setLanguage(key as Language),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('header.language')} data-testid="lang-switch" />
    </Dropdown>
  );
}

function Fullscreen() {
  const { t } = useTranslation();
  const { isFullscreen, setFullscreen } = useSettings();
  useEffect(() => {
    const on = () => setFullscreen(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, [setFullscreen]);
  const toggle = () =>
    (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(
      () => undefined,
    );
  return (
    <Button
      type="text"
      icon={isFullscreen ? <CompressOutlined /> : <ExpandOutlined />}
      aria-label={t(isFullscreen ? 'header.exitFullscreen' : 'header.fullscreen')}
      onClick={() => void toggle()}
    />
  );
}

/** The top menus; the one highlighted owns the screen open (docs/web.md "Shell"). */
function TopMenus() {
  const { t, i18n } = useTranslation();
  const { topMenus, activeTopMenuId, loadRoutes, topMenuPaths, loadTopMenuPaths } = useMenu();
  const roles = useSession((s) => s.roles);
  const { pathname } = useLocation();
  // Which screens each top menu holds is asked for once a screen other than home is open (not on the home page's load).
  const needPaths = topMenus.length > 0 && !topMenuPaths && pathname !== website.firstPage;
  useEffect(() => {
    if (needPaths) void loadTopMenuPaths(roles).catch(() => undefined);
  }, [needPaths, loadTopMenuPaths, roles]);
  const selected = highlightedTopMenu(
    pathname,
    activeTopMenuId,
    topMenuPaths,
    topMenus.map((m) => m.id),
  );
  const items = [
    { key: 'home', icon: <HomeOutlined />, label: t('header.home') },
    ...topMenus.map((m) => ({
      key: m.id,
      icon: menuIcon(m.source ?? ''),
      label: i18n.language === 'en' ? t(`topMenus.${m.code}`, { defaultValue: m.name }) : m.name,
    })),
  ];
  return (
    <Menu
      mode="horizontal"
      selectedKeys={[selected]}
      items={items}
      data-testid="top-menu"
      onClick={({ key }) => void loadRoutes(key === 'home' ? undefined : key, roles)}
    />
  );
}

/**
 * The top-bar widgets that a phone-sized screen keeps behind the "more" button. The bell is not one of them: its dot
 * (something unread, a waiting task) must show on every screen size.
 */
function Widgets() {
  return (
    <>
      <ErrorLogButton />
      <Fullscreen />
      <ThemePicker />
      <ColourButton />
      <LockButton />
      <LangSwitch />
    </>
  );
}

export default function Header() {
  const { t } = useTranslation();
  const { collapse, toggleCollapse, showSearch, setShowSearch, screen, menuOpen, setMenuOpen } = useSettings();
  const phone = screen === 0;
  return (
    <header className="atrium-header">
      {phone ? (
        <Button
          type="text"
          icon={<MenuOutlined />}
          aria-label={t('header.menu')}
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(!menuOpen)}
          data-testid="menu-toggle"
        />
      ) : (
        <Button
          type="text"
          icon={collapse ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          aria-label={t('header.collapse')}
          onClick={toggleCollapse}
          data-testid="menu-toggle"
        />
      )}
      <TopMenus />
      <Button
        type="text"
        icon={<SearchOutlined />}
        aria-label={t('header.search')}
        onClick={() => setShowSearch(!showSearch)}
        data-testid="search-toggle"
      />
      <Notice />
      {phone ? (
        <Popover
          trigger="click"
          placement="bottomRight"
          content={
            <Space wrap size={4} data-testid="header-more-panel">
              <Widgets />
            </Space>
          }
        >
          <Button type="text" icon={<MoreOutlined />} aria-label={t('header.more')} data-testid="header-more" />
        </Popover>
      ) : (
        <Widgets />
      )}
      <UserMenu />
    </header>
  );
}
