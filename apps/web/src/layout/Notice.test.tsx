import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import i18n from '../i18n';
import { get, post } from '../api/http';
import { renderScreen } from '../test-render.tsx';
import { useSession } from '../stores/session';
import Notice from './Notice';
import { BELL_POLL_MS, type BellData } from './useBell';

/**
 * The bell (docs/notices.md "The bell"): every item real — notices, waiting tasks, device and delivery alerts —, the
 * dot only when something is unread, an empty bell that says so, opening it marks everything seen.
 */
vi.mock('../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const empty = (): BellData => ({
  notices: [],
  waiting: { todo: 0, claim: 0 },
  devices: [],
  failures: [],
  unread: 0,
  seenUpTo: null,
});
let bell: BellData = empty();
const asked = () => mockGet.mock.calls.filter((c) => String(c[0]).includes('/api/blade-desk/notice/bell')).length;
const seen = () => mockPost.mock.calls.filter((c) => String(c[0]).includes('/api/blade-desk/notice/bell/seen')).length;

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}
const show = () =>
  renderScreen(
    <MemoryRouter initialEntries={['/wel/index']}>
      <Notice />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
const count = () => document.querySelector('[data-testid="notice-badge"] .ant-scroll-number:not(.ant-badge-dot)');
/** The panel and the read view are lazy chunks: a loaded machine takes a while to import them. */
const LAZY = { timeout: 15_000 };
const dot = () => document.querySelector('[data-testid="notice-badge"] .ant-badge-dot');

beforeEach(async () => {
  bell = empty();
  mockGet.mockReset();
  mockPost.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.includes('/notice/bell')) return bell;
    if (url.includes('/notice/read'))
      return {
        id: '11',
        title: 'Network work tonight',
        category: 1,
        releaseTime: '2026-11-28T09:00:00.000Z',
        status: 2,
        content: '<p>The <strong>network</strong> is down from 22:00.</p>',
        createUserName: 'admin',
      };
    throw new Error(`unexpected ${url}`);
  });
  mockPost.mockImplementation(async (url: string) => {
    if (url.includes('/bell/seen')) return { unread: 0, seenUpTo: '2026-11-28T10:00:00.000Z' };
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  vi.useRealTimers();
  useSession.setState({ mustChangePassword: false });
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 20)));
});

describe('the bell', () => {
  it('shows the count of waiting tasks and lists 待办 / 待签 with links to their lists', async () => {
    bell = { ...empty(), waiting: { todo: 2, claim: 1 } };
    show();
    await vi.waitFor(() => expect(count()?.textContent).toBe('3'));
    const button = screen.getByTestId('notice');
    expect(button.getAttribute('aria-label')).toBe('通知 · 3 件事务等待处理');
    fireEvent.click(button);
    const todo = await screen.findByTestId('waiting-todo', {}, LAZY);
    expect(todo.textContent).toContain('待办');
    expect(todo.textContent).toContain('2');
    fireEvent.click(screen.getByTestId('waiting-claim'));
    expect(screen.getByTestId('where').textContent).toBe('/work/claim/index');
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByTestId('notice').getAttribute('aria-label')).toBe('Notifications · 3 tasks waiting for you');
  }, 30_000);

  it('shows no dot when nothing is unread, and an empty bell says so in both languages', async () => {
    show();
    await vi.waitFor(() => expect(asked()).toBe(1));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(count()).toBeNull();
    expect(dot()).toBeNull();
    expect(screen.getByTestId('notice').getAttribute('aria-label')).toBe('通知');
    fireEvent.click(screen.getByTestId('notice'));
    expect((await screen.findByTestId('bell-empty', {}, LAZY)).textContent).toContain(
      '暂无通知：没有公告、待办事务或告警',
    );
    // Nothing unread: opening marks nothing.
    expect(seen()).toBe(0);
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByTestId('bell-empty').textContent).toContain('Nothing here: no notices, tasks or alerts');
  }, 30_000);

  it('shows a dot while something is unread; opening lists it and marks it seen', async () => {
    bell = {
      ...empty(),
      notices: [
        { id: '11', title: 'Network work tonight', category: 1, releaseTime: '2026-11-28T09:00:00.000Z', unread: true },
        { id: '12', title: 'Older notice', category: 2, releaseTime: '2026-11-20T09:00:00.000Z', unread: false },
      ],
      devices: [
        {
          id: '5',
          deviceId: '6',
          deviceCode: '11010100001310000001',
          name: 'Gate',
          at: '2026-11-28T08:00:00.000Z',
          unread: true,
        },
      ],
      unread: 2,
    };
    show();
    await vi.waitFor(() => expect(dot()).not.toBeNull());
    expect(count()).toBeNull();
    expect(screen.getByTestId('notice-badge').getAttribute('data-unread')).toBe('2');
    fireEvent.click(screen.getByTestId('notice'));
    const rows = await screen.findAllByTestId('bell-notice', {}, LAZY);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Network work tonight'),
      expect.stringContaining('Older notice'),
    ]);
    expect(rows[0].textContent).toContain('新');
    expect(rows[1].textContent).not.toContain('新');
    fireEvent.click(screen.getByRole('tab', { name: '设备离线 (1)' }));
    const offline = await screen.findAllByTestId('bell-device');
    expect(offline.map((r) => r.textContent)).toEqual([expect.stringContaining('Gate (11010100001310000001) 离线')]);
    expect(offline[0].textContent).toContain('新');
    await vi.waitFor(() => expect(seen()).toBe(1));
    await vi.waitFor(() => expect(dot()).toBeNull());
  }, 30_000);

  it('opens the read view of a notice clicked in the bell', async () => {
    bell = {
      ...empty(),
      notices: [
        {
          id: '11',
          title: 'Network work tonight',
          category: 1,
          releaseTime: '2026-11-28T09:00:00.000Z',
          unread: false,
        },
      ],
    };
    show();
    await vi.waitFor(() => expect(asked()).toBe(1));
    fireEvent.click(screen.getByTestId('notice'));
    fireEvent.click(await screen.findByTestId('bell-notice', {}, LAZY));
    const content = await screen.findByTestId('notice-content', {}, LAZY);
    expect(content.innerHTML).toBe('<p>The <strong>network</strong> is down from 22:00.</p>');
    expect(screen.getByTestId('notice-read').textContent).toContain('发布人：admin');
  }, 30_000);

  it('asks again every 10 seconds and shows the new count', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    bell = { ...empty(), waiting: { todo: 2, claim: 1 } };
    show();
    await vi.waitFor(() => expect(count()?.textContent).toBe('3'));
    bell = { ...empty(), waiting: { todo: 5, claim: 0 } };
    await act(() => vi.advanceTimersByTimeAsync(BELL_POLL_MS + 100));
    await vi.waitFor(() => expect(asked()).toBeGreaterThanOrEqual(2));
    await vi.waitFor(() => expect(count()?.textContent).toBe('5'));
  }, 30_000);

  // A new user must change the one-time password first: the server refuses every other call until then (403 请先修改密码),
  // and a refused ask stops the polling. The bell waits for the change, then asks at once (found by e2e/tests/flow.spec.ts).
  it('asks nothing while the password must be changed, and asks as soon as it is', async () => {
    useSession.setState({ mustChangePassword: true });
    bell = { ...empty(), waiting: { todo: 2, claim: 1 } };
    mockGet.mockImplementation(async (url: string) => {
      if (!url.includes('/notice/bell')) throw new Error(`unexpected ${url}`);
      if (useSession.getState().mustChangePassword)
        throw Object.assign(new Error('请先修改密码'), { response: { status: 403 } });
      return bell;
    });
    show();
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(asked()).toBe(0);
    expect(count()).toBeNull();
    act(() => useSession.setState({ mustChangePassword: false }));
    await vi.waitFor(() => expect(count()?.textContent).toBe('3'));
    expect(asked()).toBe(1);
  }, 30_000);
});
