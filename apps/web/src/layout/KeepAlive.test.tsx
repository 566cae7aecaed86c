import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { useTags } from '../stores/tags';
import KeepAlive from './KeepAlive';
import { refetchOnMount } from './reveal';
import { useTabScope } from './tabScope';

const fetches: string[] = [];

function Page() {
  const { pathname } = useLocation();
  const scope = useTabScope();
  const [n, setN] = useState(0);
  const data = useQuery({
    queryKey: ['page', pathname],
    queryFn: async () => {
      fetches.push(pathname);
      return `rows of ${pathname}`;
    },
  });
  return (
    <div>
      <p data-testid="page">{`${pathname} clicked ${n} in ${scope}`}</p>
      <p>{data.isFetching ? 'loading' : data.data}</p>
      <button onClick={() => setN((x) => x + 1)}>{`click ${pathname}`}</button>
    </div>
  );
}

const tab = (path: string) => document.querySelector<HTMLElement>(`[data-tab="${path}"]`)!;

function setup() {
  useTags.setState({
    tags: ['/a', '/b'].map((value) => ({ label: value, value, close: true })),
    active: '/a',
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnMount } } });
  const router = createMemoryRouter([{ element: <KeepAlive />, children: [{ path: '*', element: <Page /> }] }], {
    initialEntries: ['/a'],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, go: (to: string) => act(() => router.navigate(to)) };
}

afterEach(() => {
  cleanup();
  fetches.length = 0;
});

describe('KeepAlive', () => {
  it('keeps a hidden tab on its own location, with its state, without refetching when shown again', async () => {
    const { go } = setup();
    await screen.findByText('rows of /a');
    fireEvent.click(screen.getByText('click /a'));
    await go('/b');
    await screen.findByText('rows of /b');
    // The hidden tab still renders its own page, not the current one.
    expect(tab('/a').textContent).toContain('/a clicked 1');
    expect(tab('/b').textContent).toContain('/b clicked 0');
    await go('/a');
    expect(tab('/a').textContent).toContain('/a clicked 1');
    expect(tab('/a').textContent).toContain('rows of /a');
    expect(fetches).toEqual(['/a', '/b']);
  });

  it('refetches on reveal what was invalidated while the tab was hidden', async () => {
    const { go, client } = setup();
    await screen.findByText('rows of /a');
    await go('/b');
    await screen.findByText('rows of /b');
    await act(() => client.invalidateQueries({ queryKey: ['page', '/a'] }));
    await go('/a');
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(fetches).toEqual(['/a', '/b', '/a']);
  });

  it('gives every tab its own id prefix', async () => {
    const { go } = setup();
    await screen.findByText('rows of /a');
    await go('/b');
    const a = tab('/a').dataset.tabScope!;
    const b = tab('/b').dataset.tabScope!;
    expect(a).toMatch(/^tab\d+-$/);
    expect(b).toMatch(/^tab\d+-$/);
    expect(a).not.toBe(b);
    expect(tab('/a').textContent).toContain(`in ${a}`);
  });
});
