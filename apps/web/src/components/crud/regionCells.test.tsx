import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { defineResource } from '@atrium/contract';
import i18n from '../../i18n';
import { get, post } from '../../api/http';
import { regionName } from '../../api/region';
import { useSession } from '../../stores/session';
import ResourcePage from './ResourcePage';

/** The region kind's cells (docs/web.md "Field types"): names, not codes, one call per page of codes. */

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);

const site = defineResource({
  code: 'site',
  group: 'test',
  base: '/api/test/site',
  label: { zh: '站点', en: 'Sites' },
  scope: 'tenant',
  fields: {
    name: { kind: 'text', max: 64, label: { zh: '名称', en: 'Name' }, required: true },
    regionCode: { kind: 'region', label: { zh: '所属区域', en: 'Region' } },
  },
});

const NAMES: Record<string, { zh: string; en: string }> = {
  '110101': { zh: '东城区', en: 'Dongcheng' },
  '110105': { zh: '朝阳区', en: 'Chaoyang' },
  '33': { zh: '浙江省', en: 'Zhejiang' },
  '330106': { zh: '西湖区', en: 'Xihu' },
};
/** A page of 10 records over five codes, one of them no region's. */
const CODES = ['110101', '110105', '33', '330106', '999999'];
const ROWS = Array.from({ length: 10 }, (_, i) => ({
  id: String(i + 1),
  name: `site ${i + 1}`,
  regionCode: CODES[i % CODES.length],
  version: 1,
}));

let client: QueryClient;
function mount() {
  return render(
    <QueryClientProvider client={client}>
      <App>
        <Suspense fallback="loading">
          <ResourcePage def={site} />
        </Suspense>
      </App>
    </QueryClientProvider>,
  );
}
const nameCalls = () => mockGet.mock.calls.filter(([u]) => u.endsWith('/region/names'));
const askedCodes = (n: number) => String((nameCalls()[n][1] as { codes: string }).codes).split(',');
const cellOf = (siteName: string) =>
  screen.getByText(siteName).closest('tr')!.querySelector('[data-region-code]') as HTMLElement;

beforeEach(async () => {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  useSession.setState({ permission: { site_add: true, site_edit: true, site_delete: true, site_view: true } });
  mockGet.mockReset();
  vi.mocked(post).mockReset();
  mockGet.mockImplementation(async (url: string, params?: object) => {
    if (url.endsWith('/site/list')) return { records: ROWS, total: 10, size: 10, current: 1, pages: 1 };
    if (url.endsWith('/region/names')) {
      const lang = i18n.language === 'en' ? 'en' : 'zh';
      return String((params as { codes: string }).codes)
        .split(',')
        .filter((c) => NAMES[c])
        .map((code) => ({ code, name: NAMES[code][lang] }));
    }
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('region cells', () => {
  it('show the region names of a whole page from one call; the code is only the hover text', async () => {
    mount();
    await screen.findByText('site 10');
    await waitFor(() => expect(cellOf('site 1').textContent).toBe('东城区'));
    expect(cellOf('site 2').textContent).toBe('朝阳区');
    expect(cellOf('site 3').textContent).toBe('浙江省');
    expect(cellOf('site 4').textContent).toBe('西湖区');
    expect(cellOf('site 6').textContent).toBe('东城区');
    expect(cellOf('site 1').title).toBe('110101');
    // The known codes never appear as cell text; an unknown one stays its code.
    for (const code of ['110101', '110105', '33', '330106']) expect(screen.queryByText(code)).toBeNull();
    expect(cellOf('site 5').textContent).toBe('999999');
    expect(within(screen.getByText('site 5').closest('tr')!).getByText('999999')).toBeTruthy();
    // Ten rows, one request naming each code once.
    expect(nameCalls()).toHaveLength(1);
    expect(askedCodes(0).sort()).toEqual([...CODES].sort());
  });

  it('share the names across screens; a new language asks again and shows its names', async () => {
    const first = mount();
    await waitFor(() => expect(cellOf('site 1').textContent).toBe('东城区'));
    first.unmount();
    mount();
    await screen.findByText('site 10');
    expect(cellOf('site 2').textContent).toBe('朝阳区');
    expect(nameCalls()).toHaveLength(1);

    await act(() => i18n.changeLanguage('en'));
    await waitFor(() => expect(cellOf('site 1').textContent).toBe('Dongcheng'));
    expect(cellOf('site 4').textContent).toBe('Xihu');
    expect(nameCalls()).toHaveLength(2);
  });

  it('ask at most 200 codes per call', async () => {
    // 250 town codes asked together (none of them a region the mock knows).
    const codes = Array.from({ length: 250 }, (_, i) => String(110101001 + i));
    const names = await Promise.all(codes.map((c) => regionName(c)));
    expect(names.every((n) => n === null)).toBe(true);
    expect(nameCalls().map((_, i) => askedCodes(i).length)).toEqual([200, 50]);
    expect([...askedCodes(0), ...askedCodes(1)]).toEqual(codes);
  });
});
