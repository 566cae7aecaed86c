import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App, message } from 'antd';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import '../../i18n';
import { http } from '../../api/http';
import { setMessageApi } from '../../app/notify';
import { useSession } from '../../stores/session';
import CrudPage from './CrudPage';
import type { CrudSchema } from './types';
import { dict } from '@atrium/contract/resources/system/dict';
import { menu } from '@atrium/contract/resources/system/menu';
import { registerResourceTexts } from './fromDefinition';

// Fixture labels: the texts of two definitions.
registerResourceTexts(dict);
registerResourceTexts(menu);

/**
 * Through the real http client (only the network is replaced): a delete the server refuses settles the confirm,
 * shows the server's message, and leaves no unhandled rejection (vitest fails the run on one).
 */
const REFUSAL = '该角色已被用户使用，不能删除';
const calls: InternalAxiosRequestConfig[] = [];
const answer = (config: InternalAxiosRequestConfig, data: unknown) =>
  Promise.resolve({ data, status: 200, statusText: 'OK', headers: {}, config });
const adapter: AxiosAdapter = (config) => {
  calls.push(config);
  if (config.url?.endsWith('/list'))
    return answer(config, {
      code: 200,
      success: true,
      msg: '',
      data: { records: [{ id: '5', roleName: 'inspector', version: 1 }], total: 1, size: 10, current: 1, pages: 1 },
    });
  if (config.url?.endsWith('/remove'))
    return Promise.resolve({
      data: { code: 400, success: false, msg: REFUSAL, data: null },
      status: 400,
      statusText: 'Bad Request',
      headers: {},
      config,
    });
  return answer(config, { code: 404, success: false, msg: 'no', data: null });
};

const schema: CrudSchema = {
  base: '/api/test/role',
  title: 'dict:label',
  codes: { add: 'role_add', edit: 'role_edit', delete: 'role_delete', view: 'role_view' },
  fields: [{ name: 'roleName', label: 'dict:fields.dictValue.label' }],
};

/** What the shell's MessageBridge does (layout/Layout.tsx): the http client's toasts go through antd's App. */
function MessageBridge() {
  const { message: api } = App.useApp();
  useEffect(() => setMessageApi(api), [api]);
  return null;
}

let before: typeof http.defaults.adapter;
beforeEach(() => {
  before = http.defaults.adapter;
  http.defaults.adapter = adapter;
  useSession.setState({ token: 't', permission: { role_delete: true } });
});
afterEach(async () => {
  http.defaults.adapter = before;
  // The http client's toast lives in antd's static message root, which outlives the rendered tree: end its timers
  // before the environment goes.
  message.destroy();
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 300)));
});

describe('a refused delete', () => {
  it('closes the confirm and shows the server message', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <App>
          <MessageBridge />
          <CrudPage schema={schema} />
        </App>
      </QueryClientProvider>,
    );
    const row = (await screen.findByText('inspector')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /删\s*除/ }));
    const confirm = await waitFor(() => {
      const el = document.querySelector('.ant-modal-confirm');
      expect(el).toBeTruthy();
      return el as HTMLElement;
    });
    fireEvent.click(within(confirm).getByRole('button', { name: /确\s*定/ }));

    await screen.findByText(REFUSAL);
    expect(calls.some((c) => c.url === '/api/test/role/remove' && c.params?.ids === '5')).toBe(true);
    // The confirm settled: not loading, and gone.
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm .ant-btn-loading')).toBeNull());
    await waitFor(() => expect(screen.queryByText('确定将选择数据删除?')).toBeNull(), { timeout: 5000 });
    expect(screen.queryByText('删除成功')).toBeNull();
    expect(screen.getByText('inspector')).toBeTruthy();
  }, 60_000);
});
