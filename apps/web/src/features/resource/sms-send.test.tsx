import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import i18n from '../../i18n';
import { get, http } from '../../api/http';
import { useSession } from '../../stores/session';
import { registry } from '../../app/registry';
import SmsPage from './sms.page';
import { parseParams, parsePhones } from './sms-send';

/** The SMS screen's "send" dialog (docs/outbox.md "SMS"): its checks, the call, the answer's message; zh and en. */
vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn(), http: { post: vi.fn() } }));
const mockGet = vi.mocked(get);
const mockSend = vi.mocked(http.post);
// Validation and the answer are asynchronous; the machine may be busy.
const SLOW = { timeout: 15_000 };

const configs = [
  { id: '21', smsCode: 'hook', category: 4, templateId: 'T1', signName: 'Atrium', status: 2, version: 1 },
  { id: '22', smsCode: 'ali', category: 2, templateId: 'SMS_1', signName: 'Atrium', status: 1, version: 1 },
];

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <Suspense fallback="loading">
          <SmsPage />
        </Suspense>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  useSession.setState({ permission: { sms_add: true, sms_edit: true, sms_send: true } });
  mockGet.mockReset();
  mockSend.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/dictionary')) return [];
    if (url.endsWith('/sms/list')) return { records: configs, total: 2, size: 100, current: 1, pages: 1 };
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('the checks', () => {
  it('phones: lines, commas of either width, duplicates once; each a mobile; at most 100', () => {
    expect(parsePhones('13800000001\n13800000002，13800000001, +85291234567')).toEqual({
      ok: true,
      value: ['13800000001', '13800000002', '+85291234567'],
    });
    expect(parsePhones('  ')).toEqual({ ok: false, key: 'smsSend.phonesRequired', values: undefined });
    expect(parsePhones('13800000001,12345')).toMatchObject({ ok: false, values: { phone: '12345' } });
    const many = Array.from({ length: 101 }, (_, i) => String(13800000000 + i)).join(',');
    expect(parsePhones(many)).toMatchObject({ ok: false, key: 'smsSend.phonesTooMany' });
  });

  it('params: name=value lines or a JSON object; names, values and counts checked', () => {
    expect(parseParams('')).toEqual({ ok: true, value: {} });
    expect(parseParams('code = 482913\nminutes=5')).toEqual({ ok: true, value: { code: '482913', minutes: '5' } });
    expect(parseParams('a=1&b=x=y')).toEqual({ ok: true, value: { a: '1', b: 'x=y' } });
    expect(parseParams('{"code": 482913, "name": "店"}')).toEqual({ ok: true, value: { code: '482913', name: '店' } });
    expect(parseParams('code')).toMatchObject({ ok: false, key: 'smsSend.paramsBadLine', values: { line: 1 } });
    expect(parseParams('{"code": ')).toMatchObject({ ok: false, key: 'smsSend.paramsBadJson' });
    expect(parseParams('["a"]')).toMatchObject({ ok: false, key: 'smsSend.paramsBadJson' });
    expect(parseParams('{"a": {"b": 1}}')).toMatchObject({ ok: false, key: 'smsSend.paramsBadValue' });
    expect(parseParams('bad-name=1')).toMatchObject({ ok: false, key: 'smsSend.paramsBadName' });
    expect(parseParams('a=1\na=2')).toMatchObject({ ok: false, key: 'smsSend.paramsDuplicate' });
    expect(parseParams(`a=${'x'.repeat(201)}`)).toMatchObject({ ok: false, key: 'smsSend.paramsBadValue' });
  });
});

describe('the dialog', () => {
  it('is the screen of /resource/sms/index', () => {
    expect(registry['/resource/sms/index']).toBeTruthy();
  });

  it('zh: refuses bad phones and parameters with the reason, sends, and shows the answer', async () => {
    mockSend.mockResolvedValue({ data: { code: 200, success: true, msg: '已加入发送队列', data: ['1', '2'] } });
    mount();
    await screen.findByText('hook', {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: /发送短信/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('发送短信')).toBeTruthy();
    const phones = within(dialog).getByLabelText('手机号码');
    const params = within(dialog).getByLabelText('模板参数');

    fireEvent.click(within(dialog).getByRole('button', { name: /发\s*送/ }));
    await within(dialog).findByText('请输入至少一个手机号码', {}, SLOW);
    fireEvent.change(phones, { target: { value: '13800000001\n12345' } });
    await within(dialog).findByText('手机号码格式不正确：12345', {}, SLOW);
    fireEvent.change(phones, { target: { value: '13800000001, 13800000002' } });
    fireEvent.change(params, { target: { value: 'code' } });
    await within(dialog).findByText('第 1 行应为 名称=值', {}, SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: /发\s*送/ }));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(mockSend).not.toHaveBeenCalled();

    fireEvent.change(params, { target: { value: 'code=482913' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /发\s*送/ }));
    await screen.findByText('已加入发送队列（共 2 条）', {}, SLOW);
    expect(mockSend).toHaveBeenCalledWith(
      '/api/blade-resource/sms/endpoint/send-message',
      {
        code: undefined,
        phones: ['13800000001', '13800000002'],
        params: { code: '482913' },
      },
      { params: undefined },
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
  }, 60_000);

  it("en: a row's Send names that configuration; JSON parameters; a server refusal marks the field", async () => {
    await i18n.changeLanguage('en');
    mockSend.mockRejectedValueOnce(
      Object.assign(new Error('No SMS configuration has this code'), {
        response: {
          data: {
            code: 400,
            msg: 'No SMS configuration has this code',
            data: [{ field: 'code', message: 'No SMS configuration has this code' }],
          },
        },
      }),
    );
    mockSend.mockResolvedValueOnce({ data: { code: 200, success: true, msg: 'Queued', data: ['7'] } });
    mount();
    const row = (await screen.findByText('ali', {}, SLOW)).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Send SMS')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Mobile numbers'), { target: { value: '+85291234567' } });
    fireEvent.change(within(dialog).getByLabelText('Template parameters'), { target: { value: '{"code": 1}' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await within(dialog).findByText('No SMS configuration has this code', {}, SLOW);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await screen.findByText('Queued (1 in all)', {}, SLOW);
    expect(mockSend).toHaveBeenLastCalledWith(
      '/api/blade-resource/sms/endpoint/send-message',
      {
        code: 'ali',
        phones: ['+85291234567'],
        params: { code: '1' },
      },
      { params: undefined },
    );
  }, 60_000);
});
