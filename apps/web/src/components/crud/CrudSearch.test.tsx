import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { fakeMediaQuery } from '../../test-media';
import i18n from '../../i18n';
import { get } from '../../api/http';
import { useSession } from '../../stores/session';
import CrudPage from './CrudPage';
import type { CrudSchema } from './types';
import { dict } from '@atrium/contract/resources/system/dict';
import { menu } from '@atrium/contract/resources/system/menu';
import { registerResourceTexts } from './fromDefinition';

// Fixture labels: the texts of two definitions.
registerResourceTexts(dict);
registerResourceTexts(menu);

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);

const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const schema: CrudSchema = {
  base: '/api/test/thing',
  title: 'dict:label',
  codes: { add: 'thing_add', edit: 'thing_edit', delete: 'thing_delete', view: 'thing_view' },
  fields: NAMES.map((n) => ({ name: n, label: `Label ${n}`, search: 'like' as const, column: false })),
};

/** A window this many pixels wide, as antd's breakpoints (matchMedia min/max-width queries) see it. */
function widthOf(px: number) {
  window.matchMedia = (query: string) => {
    const min = /min-width:\s*(\d+)px/.exec(query);
    const max = /max-width:\s*(\d+)px/.exec(query);
    const matches = (!min || px >= Number(min[1])) && (!max || px <= Number(max[1]));
    return fakeMediaQuery(query, matches);
  };
}

/** Whether the search field of this label shows (no ancestor is display: none). */
function shown(label: string): boolean {
  let el: HTMLElement | null = screen.getByText(`Label ${label}`);
  while (el) {
    if (el.classList.contains('ant-form-item-hidden') || getComputedStyle(el).display === 'none') return false;
    el = el.parentElement;
  }
  return true;
}

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <CrudPage schema={schema} />
      </App>
    </QueryClientProvider>,
  );
}

const original = window.matchMedia;
beforeEach(async () => {
  useSession.setState({ permission: { thing_view: true } });
  mockGet.mockReset();
  mockGet.mockResolvedValue({ records: [], total: 0, size: 10, current: 1, pages: 0 });
  await i18n.changeLanguage('en');
});
afterEach(async () => {
  cleanup();
  window.matchMedia = original;
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

const lastQuery = () => mockGet.mock.calls.at(-1)?.[1] as Record<string, unknown>;

describe('search form folding', () => {
  it('shows three fields on a phone; the toggle reveals the rest and folds them again', async () => {
    widthOf(390);
    mount();
    await screen.findByText('Label alpha');
    await waitFor(() => expect(shown('delta')).toBe(false));
    expect(['alpha', 'bravo', 'charlie'].every(shown)).toBe(true);
    expect(['delta', 'echo', 'foxtrot', 'golf', 'hotel'].some(shown)).toBe(false);
    // Search and reset stay in sight.
    expect(screen.getByRole('button', { name: /Search/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Reset/ })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /More filters/ }));
    expect(NAMES.every(shown)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /Fewer filters/ }));
    expect(shown('hotel')).toBe(false);
  }, 30_000);

  it('shows six fields on a desktop', async () => {
    widthOf(1280);
    mount();
    await screen.findByText('Label alpha');
    await waitFor(() => expect(shown('foxtrot')).toBe(true));
    expect(shown('golf')).toBe(false);
    expect(shown('hotel')).toBe(false);
    expect(screen.getByRole('button', { name: /More filters/ })).toBeTruthy();
  }, 30_000);

  it('counts a folded field holding a value, and its value still reaches the search request', async () => {
    widthOf(390);
    mount();
    await screen.findByText('Label alpha');
    fireEvent.click(await screen.findByRole('button', { name: /More filters/ }));
    fireEvent.change(screen.getByLabelText('Label golf'), { target: { value: 'deep' } });
    fireEvent.change(screen.getByLabelText('Label alpha'), { target: { value: 'top' } });
    fireEvent.click(screen.getByRole('button', { name: /Fewer filters/ }));
    expect(shown('golf')).toBe(false);
    // The toggle counts the folded field that is set (alpha is open, so it does not count).
    expect(await screen.findByLabelText('1 folded filters set')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ alpha: 'top', golf: 'deep' }));

    // Reset clears it, folded or not.
    fireEvent.click(screen.getByRole('button', { name: /Reset/ }));
    await waitFor(() => expect(lastQuery()).not.toHaveProperty('golf'));
    expect(screen.queryByLabelText('1 folded filters set')).toBeNull();
  }, 30_000);

  it('says 展开 / 收起 in Chinese', async () => {
    await i18n.changeLanguage('zh');
    widthOf(390);
    mount();
    fireEvent.click(await screen.findByRole('button', { name: /展开/ }));
    expect(screen.getByRole('button', { name: /收起/ })).toBeTruthy();
  }, 30_000);
});
