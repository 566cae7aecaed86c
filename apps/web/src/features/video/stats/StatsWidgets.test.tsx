import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ReactNode } from 'react';
import i18n from '../../../i18n';
import { get } from '../../../api/http';
import { useMenu } from '../../../stores/menu';
import type { MenuItem } from '../../../stores/menuRoutes';
import Home from '../../../pages/Home';
import { RankingsWidget, TotalsWidget } from './StatsWidgets';

vi.mock('../../../api/http', () => ({ get: vi.fn(), post: vi.fn(), http: {} }));
const mockGet = vi.mocked(get);

const wrap = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );

const item = (code: string, path: string): MenuItem => ({
  id: code,
  code,
  name: code,
  alias: code,
  path,
  source: path,
  icon: '',
  isOpen: 1,
  meta: { i18n: code, keepAlive: true },
  children: [],
});

afterEach(() => {
  cleanup();
  mockGet.mockReset();
  useMenu.setState({ allMenus: [] });
});

describe('home dashboard (docs/devices.md "Statistics")', () => {
  it('a tenant without devices: zero totals and empty rankings, no chart drawn', async () => {
    await i18n.changeLanguage('zh');
    mockGet.mockImplementation(async (url: string) => {
      if (url.endsWith('/page'))
        return {
          records: [],
          total: 0,
          size: 1,
          current: 1,
          pages: 0,
          regionCode: '00',
          regionName: '',
          date: null,
          summary: { total: 0, online: 0, offline: 0, onlineRate: 0 },
        };
      return [{ rank: 1, regionCode: '11', regionName: '北京市', total: 0 }];
    });
    wrap(
      <>
        <TotalsWidget />
        <RankingsWidget />
      </>,
    );
    expect(await screen.findByText('设备总数')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('暂无设备数据')).toHaveLength(2));
    expect(document.querySelector('canvas')).toBeNull();
  }, 20_000);

  it('a user without the statistics, client or approval screens gets none of their widgets and no call', async () => {
    await i18n.changeLanguage('en');
    useMenu.setState({ allMenus: [item('user', '/system/user/index')] });
    wrap(<Home />);
    expect(await screen.findByText('Quick links')).toBeTruthy();
    expect(screen.queryByText('Devices')).toBeNull();
    expect(screen.queryByText('Pending approvals')).toBeNull();
    expect(mockGet).not.toHaveBeenCalled();
  });

  it('a leader sees the totals, the rankings, latest clients and pending approvals', async () => {
    await i18n.changeLanguage('en');
    mockGet.mockImplementation(async (url: string) => {
      if (url.endsWith('/page') && url.includes('Statics'))
        return { records: [], total: 0, summary: { total: 10, online: 7, offline: 3, onlineRate: 70 } };
      if (url.includes('clientInfo')) return { records: [] };
      if (url.includes('approval')) return { records: [{ id: '1', title: 'Client A', submitTime: null }] };
      if (url.endsWith('/deviceJoinRankingByRegionReport'))
        return [
          { rank: 1, regionCode: '110105', regionName: '朝阳区', total: 1200 },
          { rank: 2, regionCode: '110101', regionName: '东城区', total: 300 },
          { rank: 3, regionCode: '110102', regionName: '西城区', total: 0 },
        ];
      return [];
    });
    useMenu.setState({
      allMenus: [
        item('device_online', '/video/device_online/index'),
        item('device_ranking', '/video/device_ranking/index'),
        item('clientinfo', '/customer/clientinfo/index'),
        item('approval', '/customer/approval/index'),
      ],
    });
    wrap(<Home />);
    expect(await screen.findByText('Online rate')).toBeTruthy();
    expect(await screen.findByText('Client A')).toBeTruthy();
    expect(await screen.findByText('No client has registered yet')).toBeTruthy();
    expect(screen.getByText('Devices joined by region')).toBeTruthy();
    const urls = mockGet.mock.calls.map((c) => String(c[0]));
    expect(urls).toContain('/api/home/channelJoinRankingByRegionReport');
    // The rankings as plain bars, largest first, regions without devices left out; no chart (no ECharts chunk).
    const bars = await screen.findAllByRole('listitem');
    const ranked = bars.filter((li) => li.hasAttribute('data-region-code'));
    expect(ranked.map((li) => li.textContent)).toEqual(['朝阳区1,200', '东城区300']);
    expect(screen.getAllByText('More').length).toBeGreaterThanOrEqual(2);
    expect(document.querySelector('canvas')).toBeNull();
  }, 20_000);
});
