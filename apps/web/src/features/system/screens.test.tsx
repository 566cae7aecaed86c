import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import i18n from '../../i18n';
import { get, post } from '../../api/http';
import { registry } from '../../app/registry';
import { useMenu } from '../../stores/menu';
import { useSession } from '../../stores/session';

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);

const page = (records: object[]) => ({ records, total: records.length, size: 10, current: 1, pages: 1 });
const MENUS = [
  {
    id: '11',
    parentId: '0',
    code: 'user',
    name: '用户管理',
    alias: 'Users',
    path: '/system/user',
    category: 1,
    sort: 1,
  },
];

function mount(path: string) {
  const Screen = registry[path];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <Suspense fallback="loading">
          <Screen />
        </Suspense>
      </App>
    </QueryClientProvider>,
  );
}
const rowOf = async (text: string) => (await screen.findByText(text, {}, { timeout: 50_000 })).closest('tr')!;

beforeEach(async () => {
  const codes = ['menu', 'topmenu', 'datascope'].flatMap((c) =>
    ['add', 'edit', 'delete', 'view'].map((b) => `${c}_${b}`),
  );
  useSession.setState({ permission: Object.fromEntries(codes.map((c) => [c, true])) });
  // The sidebar's menus: their aliases are the English names.
  useMenu.setState({ names: { '11': { name: '用户管理', alias: 'Users' } } });
  mockGet.mockReset();
  vi.mocked(post).mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/dictionary')) return [];
    if (url === '/api/blade-system/menu/tree')
      return [{ id: '11', parentId: '0', title: '用户管理', key: '11', value: '11', hasChildren: false }];
    if (url === '/api/blade-system/menu/lazy-list') return MENUS;
    if (url === '/api/blade-system/topmenu/list') return page([{ id: '5', code: 'system', name: '系统', sort: 1 }]);
    if (url === '/api/blade-system/data-scope/list')
      return page([{ id: '9', menuId: '11', resourceCode: 'user', scopeName: 'all users', scopeType: 1 }]);
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('en');
});
afterEach(async () => {
  cleanup();
  await act(() => i18n.changeLanguage('zh'));
});

describe('the system screens name menus in English as the sidebar does', () => {
  it('Menus: the alias', async () => {
    mount('/system/menu/index');
    const row = await rowOf('user');
    // The name column and the alias column.
    expect(within(row).getAllByText('Users')).toHaveLength(2);
    expect(within(row).queryByText('用户管理')).toBeNull();
  }, 90_000);

  it('Top menus: the name the header shows', async () => {
    mount('/system/topmenu/index');
    const row = await rowOf('System');
    expect(within(row).queryByText('系统')).toBeNull();
  }, 90_000);

  it('Data scopes: the menu column', async () => {
    mount('/system/datascope/index');
    const row = await rowOf('all users');
    expect(await within(row).findByText('Users')).toBeTruthy();
    expect(within(row).queryByText('用户管理')).toBeNull();
  }, 90_000);
});

describe('every system screen comes from its definition', () => {
  it('by convention, the dictionaries under the paths the product fixes', () => {
    for (const code of ['user', 'dept', 'role', 'menu', 'topmenu', 'param', 'tenant', 'client', 'dict', 'dictbiz'])
      expect(registry[`/system/${code}/index`], code).toBeTruthy();
    expect(registry['/system/datascope/index']).toBeTruthy();
    expect(registry['/system/apiscope/index']).toBeTruthy();
    expect(registry['/dict-horizontal/index']).toBe(registry['/system/dict/index']);
    expect(registry['/dict-vertical/index']).toBe(registry['/system/dictbiz/index']);
  });
});
