import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import i18n from '../i18n';
import { renderScreen } from '../test-render';
import { useSession } from '../stores/session';
import Home from './Home';

/** The platform administrator as the user info answers it (seeded names, stored in Chinese). */
const admin = {
  id: '1',
  tenantId: '000000',
  tenantName: '管理组',
  account: 'admin',
  name: 'admin',
  realName: '管理员',
  avatar: '',
  email: '',
  phone: '',
  deptId: '',
  deptName: '',
  postId: '',
  roleId: '1,2',
  roleName: '超级管理员,供应商管理员',
  roles: ['administrator', 'supplier_admin'],
  mustChangePassword: false,
};

const mount = () =>
  renderScreen(
    <MemoryRouter>
      <Home />
    </MemoryRouter>,
  );

afterEach(() => cleanup());

describe('home page: who you are', () => {
  it('shows role names, not role codes, and the seeded names in English', async () => {
    useSession.setState({ userInfo: admin, roles: admin.roles });
    await i18n.changeLanguage('en');
    mount();
    expect(screen.getByText('Hello, Administrator')).toBeTruthy();
    expect(screen.getByText('000000 Administration group')).toBeTruthy();
    expect(screen.getByText('Super administrator, Supplier administrator')).toBeTruthy();
    expect(screen.queryByText(/supplier_admin|管理/)).toBeNull();
  });

  it('shows the stored names in Chinese, and a renamed one as stored in English', async () => {
    useSession.setState({ userInfo: admin, roles: admin.roles });
    await i18n.changeLanguage('zh');
    mount();
    expect(screen.getByText('你好，管理员')).toBeTruthy();
    expect(screen.getByText('超级管理员, 供应商管理员')).toBeTruthy();
    expect(screen.queryByText(/administrator|supplier_admin/)).toBeNull();
    cleanup();
    useSession.setState({ userInfo: { ...admin, realName: '王五', roleName: '巡检员' } });
    await i18n.changeLanguage('en');
    mount();
    expect(screen.getByText('Hello, 王五')).toBeTruthy();
    expect(screen.getByText('巡检员')).toBeTruthy();
  });
});
