import { Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Spin } from 'antd';
import { useMenu } from '../stores/menu';
import { flatten } from '../stores/menuRoutes';
import { registry } from './registry';
import NotAvailable from '../pages/NotAvailable';

/**
 * Pages of server menus: registered → the page; a menu not built yet → a clear notice; anything else → /404.
 * Inside a kept tab `useLocation` is the tab's own location (KeepAlive freezes it), so a hidden tab keeps its page.
 */
export default function DynamicPage() {
  const { pathname } = useLocation();
  const allMenus = useMenu((s) => s.allMenus);
  const loaded = useMenu((s) => s.loaded);
  const Page = registry[pathname];
  if (Page)
    return (
      <Suspense fallback={<Spin style={{ margin: 48 }} />}>
        <Page />
      </Suspense>
    );
  if (!loaded) return <Spin style={{ margin: 48 }} />;
  const menu = flatten(allMenus).find((m) => m.path === pathname);
  if (menu) return <NotAvailable name={menu.name} alias={menu.alias} />;
  return <Navigate to="/404" replace />;
}
