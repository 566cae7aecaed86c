import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { clienttrack } from '@atrium/contract/resources/customer/clienttrack';
import i18n from '../../i18n';
import { get, post } from '../../api/http';
import { useSession } from '../../stores/session';
import { registry } from '../../app/registry';
import ResourcePage from '../../components/crud/ResourcePage';
import { renderScreen } from '../../test-render.tsx';

/** 客户跟踪 comes from its definition alone (docs/clients.md "Client tracking"): read-only, list and detail. */
vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);

const record = {
  id: '41',
  clientId: '7',
  clientName: '东城便利店',
  trackType: 2,
  content: '上门拜访，确认摄像头安装位置',
  trackerName: 'region_east',
  trackTime: '2026-11-05T01:00:00Z',
  nextTrackTime: '2026-11-12T01:00:00Z',
  version: 1,
};

beforeEach(async () => {
  // Even a user holding add / edit / delete codes by that name gets no write button: records come from customerTrack.
  const held = ['clienttrack', 'clienttrack_view', 'clienttrack_add', 'clienttrack_edit', 'clienttrack_delete'];
  useSession.setState({ permission: Object.fromEntries(held.map((c) => [c, true])) });
  mockGet.mockReset();
  vi.mocked(post).mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/dictionary')) return [];
    if (url.includes('/clientInfo/clientList')) return [{ id: '7', clientName: '东城便利店' }];
    if (url.includes('/clientTrack/list')) return { records: [record], total: 1, size: 10, current: 1, pages: 1 };
    if (url.includes('/clientTrack/detail')) return record;
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('client tracking screen', () => {
  it('is registered under the menu path', () => {
    expect(registry['/customer/clienttrack/index']).toBeTruthy();
  });

  it('lists the follow-ups read-only with client, type and tracker, newest first, in both languages', async () => {
    renderScreen(<ResourcePage def={clienttrack} />);
    const row = (await screen.findByText('上门拜访，确认摄像头安装位置')).closest('tr') as HTMLElement;
    expect(within(row).getByText('东城便利店')).toBeTruthy();
    expect(within(row).getByText('拜访')).toBeTruthy();
    expect(within(row).getByText('region_east')).toBeTruthy();
    // The long content keeps to one line of its column; the whole text on hover.
    expect(within(row).getByTitle('上门拜访，确认摄像头安装位置')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(within(row).queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    const listed = mockGet.mock.calls.find((call) => String(call[0]).includes('/clientTrack/list'))!;
    expect(String(listed[0])).toContain('/api/blade-business/clientTrack/list');
    await act(() => i18n.changeLanguage('en'));
    await screen.findAllByText('Client tracking');
    expect(within(row).getByText('Visit')).toBeTruthy();
  }, 60_000);

  it('filters by tracker and shows the detail', async () => {
    renderScreen(<ResourcePage def={clienttrack} />);
    const row = (await screen.findByText('region_east')).closest('tr') as HTMLElement;
    const more = screen.queryByRole('button', { name: /展\s*开/ });
    if (more) fireEvent.click(more);
    const tracker = screen.getByLabelText('跟踪人');
    fireEvent.change(tracker, { target: { value: 'east' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索|查\s*询/ }));
    const searched = () =>
      mockGet.mock.calls.some(
        (call) => /clientTrack\/list/.test(String(call[0])) && /"trackerName":"east"/.test(JSON.stringify(call)),
      );
    await vi.waitFor(() => expect(searched()).toBe(true));
    fireEvent.click(within(row).getByRole('button', { name: /查\s*看/ }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('上门拜访，确认摄像头安装位置');
    expect(within(dialog).getByDisplayValue('东城便利店')).toBeTruthy();
    expect(within(dialog).getByDisplayValue('region_east')).toBeTruthy();
    expect(within(dialog).getByText('拜访')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /提\s*交/ })).toBeNull();
  }, 60_000);
});
