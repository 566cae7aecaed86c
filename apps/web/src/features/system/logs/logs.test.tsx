import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from '../../../i18n';
import { get } from '../../../api/http';
import { registry } from '../../../app/registry';
import { renderScreen } from '../../../test-render.tsx';
import { AuditScreen } from './AuditScreen';
import { ErrorScreen } from './ErrorScreen';

/** The log screens (docs/web.md "Log screens") against a mocked server. */

vi.mock('../../../api/http', () => ({ get: vi.fn(), post: vi.fn(), http: {} }));
const mockGet = vi.mocked(get);

const ROW = {
  id: '91',
  entity: 'dept',
  action: 'update',
  entityId: '31',
  userId: '7',
  account: 'admin',
  userName: '管理员',
  requestId: 'req-1',
  createTime: '2026-11-28T01:00:00Z',
};
const ERROR = {
  id: '81',
  type: 'error',
  url: '/system/dept/index',
  message: 'boom',
  clientTime: '2026-11-28 09:00:00',
  userId: '7',
  account: 'admin',
  userName: '管理员',
  createTime: '2026-11-28T01:00:00Z',
};
const page = <T,>(records: T[], capped = false) => ({
  records,
  total: records.length,
  size: 10,
  current: 1,
  pages: 1,
  capped,
});

beforeEach(async () => {
  mockGet.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/audit/list')) return page([ROW], true);
    if (url.endsWith('/audit/detail'))
      return {
        ...ROW,
        before: {},
        after: {},
        changes: [
          { field: 'deptName', before: '审计部', after: '审计二部' },
          { field: 'sort', before: null, after: 2 },
        ],
      };
    if (url.endsWith('/error/list')) return page([ERROR]);
    if (url.endsWith('/error/detail'))
      return { ...ERROR, stack: 'Error: boom\n  at x', userAgent: 'Chromium', requestId: 'r' };
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('审计日志', () => {
  it('is the screen of the menu paths', () => {
    for (const p of ['/system/auditlog/index', '/system/errorlog/index']) expect(registry[p]).toBeTruthy();
  });

  it('lists rows, says when the list is capped, and shows a row’s changes with the definition’s labels', async () => {
    renderScreen(<AuditScreen />);
    const row = (await screen.findByText('31')).closest('tr') as HTMLElement;
    expect(within(row).getByText('修改')).toBeTruthy();
    expect(within(row).getByText('admin')).toBeTruthy();
    expect(screen.getByText('匹配超过 10,000 条，只分页前 10,000 条，请缩小筛选条件')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: '查看' }));
    const drawer = await screen.findByTestId('audit-detail');
    // deptName is labelled 机构名称 by the dept definition, once it has loaded.
    const name = await within(drawer).findByText('机构名称', {}, { timeout: 5000 });
    const line = name.closest('tr') as HTMLElement;
    expect(within(line).getByText('审计部')).toBeTruthy();
    expect(within(line).getByText('审计二部')).toBeTruthy();
    expect(within(drawer).getByText('—')).toBeTruthy();
  });

  it('sends the filters and starts again at page 1', async () => {
    renderScreen(<AuditScreen />);
    await screen.findByText('31');
    fireEvent.change(screen.getByLabelText('对象'), { target: { value: 'dept' } });
    fireEvent.change(screen.getByLabelText('账号'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByRole('button', { name: '搜 索' }));
    await waitFor(() =>
      expect(
        mockGet.mock.calls.some(
          ([u, q]) =>
            String(u).endsWith('/audit/list') && JSON.stringify(q).includes('"entity":"dept","account":"admin"'),
        ),
      ).toBe(true),
    );
  });

  it('speaks English', async () => {
    await i18n.changeLanguage('en');
    renderScreen(<AuditScreen />);
    const row = (await screen.findByText('31')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'View' }));
    const drawer = await screen.findByTestId('audit-detail');
    expect(await within(drawer).findByText('Before')).toBeTruthy();
    expect(await within(drawer).findByText('Department name', {}, { timeout: 5000 })).toBeTruthy();
  });
});

describe('错误日志', () => {
  it('lists the uploaded entries and shows one’s stack', async () => {
    renderScreen(<ErrorScreen />);
    const row = (await screen.findByText('/system/dept/index')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: '查看' }));
    const drawer = await screen.findByTestId('error-detail');
    expect(await within(drawer).findByText(/at x/)).toBeTruthy();
    expect(within(drawer).getByText('Chromium')).toBeTruthy();
  });
});
