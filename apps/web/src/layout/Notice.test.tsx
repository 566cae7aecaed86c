import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import i18n from '../i18n';
import { get } from '../api/http';
import { renderScreen } from '../test-render.tsx';
import { useSession } from '../stores/session';
import Notice from './Notice';
import { WAITING_POLL_MS } from './useWaiting';

/** The bell (docs/workflow.md "Screens: my work and leave"): the count of waiting tasks, polled, linked to the lists. */
vi.mock('../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);
let counts = { todo: 2, claim: 1 };
const asked = () =>
  mockGet.mock.calls.filter((c) => String(c[0]).includes('/api/blade-flow/work/waiting-count')).length;

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
const badge = () => document.querySelector('[data-testid="notice-badge"] .ant-badge-count, .ant-scroll-number');

beforeEach(async () => {
  counts = { todo: 2, claim: 1 };
  mockGet.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.includes('/work/waiting-count')) return counts;
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
    show();
    await vi.waitFor(() => expect(badge()?.textContent).toBe('3'));
    const bell = screen.getByTestId('notice');
    expect(bell.getAttribute('aria-label')).toBe('通知 · 3 件事务等待处理');
    fireEvent.click(bell);
    const todo = await screen.findByTestId('waiting-todo');
    expect(todo.textContent).toContain('待办');
    expect(todo.textContent).toContain('2');
    expect(screen.getByTestId('waiting-claim').textContent).toContain('待签');
    fireEvent.click(screen.getByTestId('waiting-claim'));
    expect(screen.getByTestId('where').textContent).toBe('/work/claim/index');
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByTestId('notice').getAttribute('aria-label')).toBe('Notifications · 3 tasks waiting for you');
  }, 30_000);

  it('shows no dot when nothing waits', async () => {
    counts = { todo: 0, claim: 0 };
    show();
    await vi.waitFor(() => expect(asked()).toBe(1));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(badge()).toBeNull();
    expect(screen.getByTestId('notice').getAttribute('aria-label')).toBe('通知');
  }, 30_000);

  it('asks again every 10 seconds and shows the new count', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    show();
    await vi.waitFor(() => expect(badge()?.textContent).toBe('3'));
    counts = { todo: 5, claim: 0 };
    await act(() => vi.advanceTimersByTimeAsync(WAITING_POLL_MS + 100));
    await vi.waitFor(() => expect(asked()).toBeGreaterThanOrEqual(2));
    await vi.waitFor(() => expect(badge()?.textContent).toBe('5'));
  }, 30_000);

  // A new user must change the one-time password first: the server refuses every other call until then (403 请先修改密码),
  // and a refused count stops the polling. The bell waits for the change, then counts at once (found by e2e/tests/flow.spec.ts).
  it('asks nothing while the password must be changed, and counts as soon as it is', async () => {
    useSession.setState({ mustChangePassword: true });
    mockGet.mockImplementation(async (url: string) => {
      if (!url.includes('/work/waiting-count')) throw new Error(`unexpected ${url}`);
      if (useSession.getState().mustChangePassword)
        throw Object.assign(new Error('请先修改密码'), { response: { status: 403 } });
      return counts;
    });
    show();
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(asked()).toBe(0);
    expect(badge()).toBeNull();
    act(() => useSession.setState({ mustChangePassword: false }));
    await vi.waitFor(() => expect(badge()?.textContent).toBe('3'));
    expect(asked()).toBe(1);
  }, 30_000);
});
