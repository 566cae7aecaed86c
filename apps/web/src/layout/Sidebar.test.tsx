import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import '../i18n';
import { useMenu } from '../stores/menu';
import type { MenuItem } from '../stores/menuRoutes';
import { useSettings } from '../stores/settings';
import Sidebar from './Sidebar';

const item = (id: string, name: string, path: string, children: MenuItem[] = []): MenuItem => ({
  id,
  code: id,
  name,
  alias: name,
  path,
  source: path,
  icon: '',
  isOpen: 1,
  meta: { i18n: id, keepAlive: true },
  children,
});
const menus = [
  item('desk', '工作台', '/desk/index', [item('notice', '通知公告', '/desk/notice/index')]),
  item('system', '系统管理', '/system/index', [item('user', '用户管理', '/system/user/index')]),
];

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '*', element: <Sidebar /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  cleanup();
  useMenu.setState({ menus: [] });
});

describe('Sidebar', () => {
  it('selects and opens the current page once the menus arrive (a reload on a deep link)', async () => {
    useSettings.setState({ screen: 3, collapse: false });
    renderAt('/system/user/index');
    // The menus load after the first render.
    act(() => useMenu.setState({ menus }));
    const selected = document.querySelector('.ant-menu-item-selected');
    expect(selected?.textContent).toBe('用户管理');
    expect(screen.getByText('系统管理').closest('.ant-menu-submenu')?.className).toContain('ant-menu-submenu-open');
    expect(screen.getByText('工作台').closest('.ant-menu-submenu')?.className).not.toContain('ant-menu-submenu-open');
  });

  it('on a phone is a closed drawer that closes again after a menu is picked', async () => {
    useSettings.setState({ screen: 0, collapse: false, menuOpen: false });
    const router = renderAt('/wel/index');
    act(() => useMenu.setState({ menus }));
    const aside = screen.getByTestId('sidebar');
    expect(aside.className).toContain('drawer');
    expect(aside.className).not.toContain('open');
    act(() => useSettings.getState().setMenuOpen(true));
    expect(aside.className).toContain('open');
    fireEvent.click(screen.getByText('系统管理'));
    fireEvent.click(screen.getByText('用户管理'));
    expect(router.state.location.pathname).toBe('/system/user/index');
    expect(useSettings.getState().menuOpen).toBe(false);
    expect(aside.className).not.toContain('open');
  });
});
