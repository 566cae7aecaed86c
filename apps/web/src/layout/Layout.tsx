import { Suspense, lazy, useEffect } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { setMessageApi } from '../app/notify';
import '../app/dayjsLocale';
import { useLocation, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMenu } from '../stores/menu';
import { flatten } from '../stores/menuRoutes';
import { useSession } from '../stores/session';
import { useSettings } from '../stores/settings';
import { useTags } from '../stores/tags';
import { HOME_TAG } from '../stores/tagRules';
import type { RouteHandle } from '../app/router';
import { getUserInfo } from '../api/auth';
import Header from './Header';
import KeepAlive from './KeepAlive';
import { refetchOnMount } from './reveal';
import Sidebar, { menuLabel } from './Sidebar';
import TagsBar, { tagLabel } from './TagsBar';

// The menu search is a chunk of its own, loaded when first opened: its list stays off the bytes of the first
// screen (docs/web.md "Bundle budget").
const SearchPanel = lazy(() => import('./SearchPanel'));

/** Server state of the screens (TanStack Query) lives inside the shell, so the login page does not load it. */
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, refetchOnMount } },
});

/** Gives non-React code (the http client) the themed message API of the shell. */
function MessageBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setMessageApi(message), [message]);
  return null;
}

export default function Layout() {
  return (
    <AntApp component={false}>
      <MessageBridge />
      <Shell />
    </AntApp>
  );
}

/** The authenticated shell of docs/product.md "Screens and routes": sidebar, header, tags, search panel, routed content. */
function Shell() {
  const { t, i18n } = useTranslation();
  const { pathname, search } = useLocation();
  const matches = useMatches();
  const { screen, showSearch, setScreen, menuOpen, setMenuOpen } = useSettings();
  const { allMenus, loaded, loadAll } = useMenu();
  const roles = useSession((s) => s.roles);
  const open = useTags((s) => s.open);
  const tags = useTags((s) => s.tags);

  // The flow-routes load on mount: menus, top menus, buttons; user info kept fresh.
  useEffect(() => {
    if (loaded) return;
    void loadAll(roles)
      .then((codes) => useSession.getState().setPermission(codes))
      .catch(() => undefined);
    void getUserInfo()
      .then((info) => useSession.getState().setUserInfo(info))
      .catch(() => undefined);
  }, [loaded, loadAll, roles]);

  useEffect(() => {
    const onResize = () => setScreen(window.innerWidth);
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setScreen]);

  // Every page opened becomes a tag (docs/product.md "States"), labelled from the route or the server menu.
  useEffect(() => {
    const value = pathname + search;
    if (pathname === HOME_TAG.value) return open({ ...HOME_TAG });
    const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;
    const menu = flatten(allMenus).find((m) => m.path === pathname);
    if (menu) open({ label: menu.name, value, close: true, meta: { keepAlive: true } });
    else if (handle?.title)
      open({ label: t(handle.title), i18n: handle.title, value, close: true, meta: { isTab: handle.isTab } });
  }, [pathname, search, matches, allMenus, open, t]);

  // The page title follows the route and the language.
  useEffect(() => {
    const tag = tags.find((x) => x.value === pathname + search);
    const menu = flatten(allMenus).find((m) => m.path === pathname);
    const label = menu ? menuLabel(menu, i18n.language) : tag ? tagLabel(tag, t) : '';
    document.title = label ? `${label} · Atrium` : 'Atrium';
  }, [pathname, search, tags, allMenus, t, i18n.language]);

  return (
    <QueryClientProvider client={queryClient}>
      <div className="atrium-shell">
        <Sidebar />
        {screen === 0 && menuOpen && (
          <div className="atrium-shade" onClick={() => setMenuOpen(false)} data-testid="shade" />
        )}
        <div className="atrium-main">
          <Header />
          <TagsBar />
          {showSearch ? (
            <Suspense fallback={null}>
              <SearchPanel />
            </Suspense>
          ) : (
            <main className="atrium-content">
              <KeepAlive />
            </main>
          )}
        </div>
      </div>
    </QueryClientProvider>
  );
}
