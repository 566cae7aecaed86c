import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18n from '../i18n';
import { get } from '../api/http';
import { useMenu } from '../stores/menu';
import { renderScreen } from '../test-render';
import MyIframe, { frameAllowed } from './MyIframe';

// Issue 24 §4.4: /myiframe frames only origins the platform lists (docs/web.md "Framed pages").
vi.mock('../api/http', () => ({ get: vi.fn(), post: vi.fn(), http: {} }));
const mockGet = vi.mocked(get);

function mount(url: string) {
  const router = createMemoryRouter([{ path: '/myiframe/:routerPath', element: <MyIframe /> }], {
    initialEntries: [url],
  });
  return renderScreen(<RouterProvider router={router} />);
}
const frame = () => document.querySelector('iframe');

beforeEach(async () => {
  mockGet.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/param/frame-origins')) return { origins: ['https://docs.example.com'] };
    throw new Error(`unexpected ${url}`);
  });
  useMenu.setState({ allMenus: [] });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 20)));
});

describe('/myiframe', () => {
  it('frames an address of a listed origin', async () => {
    mount(`/myiframe/docs?src=${encodeURIComponent('https://docs.example.com/guide?a=1')}`);
    await vi.waitFor(() => expect(frame()?.getAttribute('src')).toBe('https://docs.example.com/guide?a=1'));
  });

  it('frames the console’s own origin', async () => {
    mount(`/myiframe/own?src=${encodeURIComponent(`${window.location.origin}/files/x.pdf`)}`);
    await vi.waitFor(() => expect(frame()).not.toBeNull());
  });

  it('refuses any other origin with a clear message instead of the frame, in zh and en', async () => {
    const evil = 'https://docs.example.com.evil.test/login';
    mount(`/myiframe/x?src=${encodeURIComponent(evil)}`);
    expect(await screen.findByText('已拒绝打开该页面')).toBeTruthy();
    expect(screen.getByText(/地址 https:\/\/docs\.example\.com\.evil\.test 不在平台允许嵌入的来源中/)).toBeTruthy();
    expect(frame()).toBeNull();
    cleanup();
    await i18n.changeLanguage('en');
    mount(`/myiframe/x?src=${encodeURIComponent('http://docs.example.com/guide')}`);
    expect(await screen.findByText('This page was not opened')).toBeTruthy();
    expect(screen.getByText(/The address http:\/\/docs\.example\.com is not among the origins/)).toBeTruthy();
    expect(frame()).toBeNull();
  });

  it('a menu’s external page follows the same list; an unreadable list refuses', async () => {
    useMenu.setState({
      // A stand-in with the fields the page reads of a menu.
      allMenus: [
        {
          id: '1',
          code: 'ext',
          name: 'ext',
          path: 'https://other.example.net/',
          source: 'https://other.example.net/',
          children: [],
        },
      ] as never,
    });
    mount('/myiframe/ext');
    expect(await screen.findByText('已拒绝打开该页面')).toBeTruthy();
    cleanup();
    mockGet.mockRejectedValue(new Error('offline'));
    mount(`/myiframe/docs?src=${encodeURIComponent('https://docs.example.com/guide')}`);
    expect(await screen.findByText('已拒绝打开该页面')).toBeTruthy();
    expect(frame()).toBeNull();
  });

  it('frameAllowed compares whole origins: scheme, host and port', () => {
    const list = ['https://docs.example.com'];
    const own = 'https://console.example.com';
    expect(frameAllowed('https://docs.example.com/a', list, own)).toBe(true);
    expect(frameAllowed('https://docs.example.com:8443/a', list, own)).toBe(false);
    expect(frameAllowed('http://docs.example.com/a', list, own)).toBe(false);
    expect(frameAllowed('https://user@docs.example.com.evil.test/', list, own)).toBe(false);
    expect(frameAllowed('https://evil.test/#https://docs.example.com', list, own)).toBe(false);
    expect(frameAllowed('https://console.example.com/x', list, own)).toBe(true);
    expect(frameAllowed('javascript:alert(1)', list, own)).toBe(false);
  });
});
