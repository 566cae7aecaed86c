import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../i18n';
import { renderScreen } from '../../test-render';
import { get } from '../../api/http';
import { useSession } from '../../stores/session';
import ConfigTemplatePage from './configtemplate.page';

/**
 * The device type and manufacturer cells (docs/devices.md "Dictionary names"): the dictionary's names in the current
 * language, not the codes, from the pickers' lists (one call for the types, one per type for its manufacturers).
 */

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);

const TYPES = [
  { id: '1', parentId: '0', code: '131', zh: '摄像机', en: 'Camera' },
  { id: '2', parentId: '0', code: '118', zh: '网络视频录像机(NVR)', en: 'Network video recorder (NVR)' },
];
const MAKERS: Record<string, { id: string; code: string; zh: string; en: string }[]> = {
  '131': [
    { id: '11', code: 'hikvision', zh: '海康威视', en: 'Hikvision' },
    { id: '12', code: 'dahua', zh: '大华', en: 'Dahua' },
  ],
  '118': [{ id: '21', code: 'hikvision', zh: '海康威视', en: 'Hikvision' }],
};
const ROWS = [
  { id: '1', name: 'T-cam-hik', deviceType: '131', manufacturer: 'hikvision', status: 1, version: 1 },
  { id: '2', name: 'T-cam-dahua', deviceType: '131', manufacturer: 'dahua', status: 1, version: 1 },
  { id: '3', name: 'T-nvr', deviceType: '118', manufacturer: 'hikvision', status: 1, version: 1 },
  { id: '4', name: 'T-odd', deviceType: '199', manufacturer: 'acme', status: 1, version: 1 },
];

const mount = () => renderScreen(<ConfigTemplatePage />);
const listAllCalls = () => mockGet.mock.calls.filter(([u]) => u.endsWith('/dictioncary/listAll'));
const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

beforeEach(async () => {
  useSession.setState({ permission: { configtemplate_view: true } });
  mockGet.mockReset();
  mockGet.mockImplementation(async (url: string, params?: object) => {
    const lang = i18n.language === 'en' ? 'en' : 'zh';
    if (url.endsWith('/configtemplate/list')) return { records: ROWS, total: 4, size: 10, current: 1, pages: 1 };
    if (url.endsWith('/dictioncary/listAll')) {
      const p = (params ?? {}) as { parentId?: string; deviceType?: string };
      if (p.parentId === '0') return TYPES.map((r) => ({ ...r, name: r[lang] }));
      if (p.deviceType)
        return (MAKERS[p.deviceType] ?? []).map((r) => ({ ...r, parentId: p.deviceType, name: r[lang] }));
      return [];
    }
    return [];
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('device dictionary cells', () => {
  it('show the type and manufacturer names, not their codes, in the current language', async () => {
    mount();
    await screen.findByText('T-cam-hik', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(rowOf('T-cam-hik')).queryByText('海康威视')).toBeTruthy());
    expect(within(rowOf('T-cam-hik')).getByText('摄像机')).toBeTruthy();
    expect(within(rowOf('T-cam-dahua')).getByText('大华')).toBeTruthy();
    expect(within(rowOf('T-nvr')).getByText('网络视频录像机(NVR)')).toBeTruthy();
    expect(within(rowOf('T-nvr')).getByText('海康威视')).toBeTruthy();
    for (const code of ['131', '118', 'hikvision', 'dahua']) expect(screen.queryByText(code)).toBeNull();
    // A code the dictionary lacks stays a code.
    expect(within(rowOf('T-odd')).getByText('199')).toBeTruthy();
    expect(within(rowOf('T-odd')).getByText('acme')).toBeTruthy();
    // One call for the types, one per type shown for its manufacturers — not one per row.
    const asked = listAllCalls().map(([, p]) => JSON.stringify(p));
    expect(new Set(asked)).toEqual(
      new Set([
        JSON.stringify({ parentId: '0' }),
        JSON.stringify({ deviceType: '131' }),
        JSON.stringify({ deviceType: '118' }),
        JSON.stringify({ deviceType: '199' }),
      ]),
    );
    expect(asked).toHaveLength(4);

    await act(() => i18n.changeLanguage('en'));
    await waitFor(() => expect(within(rowOf('T-cam-hik')).queryByText('Camera')).toBeTruthy());
    await waitFor(() => expect(within(rowOf('T-cam-dahua')).queryByText('Dahua')).toBeTruthy());
    expect(within(rowOf('T-nvr')).getByText('Network video recorder (NVR)')).toBeTruthy();
    expect(screen.queryByText('摄像机')).toBeNull();
  }, 60_000);
});
