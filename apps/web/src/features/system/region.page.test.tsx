import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import i18n from '../../i18n';
import { get, post } from '../../api/http';
import { forgetRegionLevels } from '../../api/region';
import { useSession } from '../../stores/session';
import RegionPage from './region.page';

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn(), http: {} }));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const node = (code: string, parent: string, title: string, hasChildren: boolean) => ({
  id: code,
  parentId: parent,
  title,
  key: code,
  value: code,
  level: code.length === 2 ? 1 : 2,
  hasChildren,
  children: [],
});
const LEVELS: Record<string, ReturnType<typeof node>[]> = {
  '00': [node('33', '00', '浙江省', true)],
  '33': [node('3301', '33', '杭州市', false)],
};
const HANGZHOU = {
  id: '9',
  version: 2,
  code: '3301',
  parentCode: '33',
  name: '杭州市',
  level: 2,
  ancestors: '00,33',
  provinceCode: '33',
  provinceName: '浙江省',
  cityCode: '3301',
  cityName: '杭州市',
  sort: 0,
  remark: null,
};
const CODES = ['region_add', 'region_edit', 'region_delete', 'region_import', 'region_export'];

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <Suspense fallback="loading">
          <RegionPage />
        </Suspense>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  forgetRegionLevels();
  mockGet.mockReset();
  mockPost.mockReset();
  mockGet.mockImplementation(async (url: string, params?: object) => {
    const p = (params ?? {}) as Record<string, string>;
    if (url.endsWith('/region/lazy-tree')) return LEVELS[p.parentCode] ?? [];
    if (url.endsWith('/region/detail') && p.code === '3301') return HANGZHOU;
    if (url.endsWith('/dictionary')) return [{ id: '1', dictKey: '2', dictValue: '地市' }];
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

const openHangzhou = async () => {
  fireEvent.click(
    (await screen.findByText('浙江省')).closest('.ant-tree-treenode')!.querySelector('.ant-tree-switcher')!,
  );
  fireEvent.click(await screen.findByText('杭州市'));
  return screen.findByText('杭州市 (3301)');
};

describe('the region screen', () => {
  it('opens a region from the lazy tree and saves it for the platform administrator', async () => {
    useSession.setState({
      tenantId: '000000',
      roles: ['administrator'],
      permission: Object.fromEntries(CODES.map((c) => [c, true])),
    });
    mount();
    const title = await openHangzhou();
    const panel = title.closest('.ant-card') as HTMLElement;
    expect(within(panel).getByText('浙江省 / 杭州市')).toBeTruthy();
    await within(panel).findByText('地市');
    expect(screen.getByRole('button', { name: /新增省份/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*入/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /导出杭州市/ })).toBeTruthy();

    fireEvent.change(within(panel).getByLabelText('区划名称'), { target: { value: '杭州' } });
    mockPost.mockResolvedValueOnce({ ...HANGZHOU, name: '杭州', version: 3 });
    fireEvent.click(within(panel).getByRole('button', { name: /保\s*存/ }));
    await vi.waitFor(() => expect(mockPost).toHaveBeenCalled());
    const [url, body] = mockPost.mock.calls[0];
    expect(url).toBe('/api/blade-system/region/submit');
    expect(body).toMatchObject({ id: '9', version: 2, code: '3301', parentCode: '33', name: '杭州' });
  }, 60_000);

  it('shows a tenant user the regions read-only, with the export only', async () => {
    useSession.setState({
      tenantId: '720001',
      roles: ['administrator'],
      permission: Object.fromEntries(CODES.map((c) => [c, true])),
    });
    mount();
    const panel = (await openHangzhou()).closest('.ant-card') as HTMLElement;
    expect(within(panel).queryByRole('button', { name: /保\s*存/ })).toBeNull();
    expect(within(panel).queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /新增省份/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*入/ })).toBeNull();
    expect(screen.getByRole('button', { name: /导出杭州市/ })).toBeTruthy();
  }, 60_000);
});
