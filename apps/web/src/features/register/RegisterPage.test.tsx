import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { validateCreditCode } from '@atrium/contract';
import i18n from '../../i18n';
import { get, post } from '../../api/http';
import RegisterPage from './RegisterPage';
import StatusPage from './StatusPage';

// The http layer only, as the other component tests stub it; every component and call wrapper of the pages is real.
vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const BASE = '/api/blade-business/clientInfo';
const REGIONS: Record<string, { value: string; title: string; hasChildren: boolean }[]> = {
  '00': [{ value: '11', title: '北京市', hasChildren: true }],
  '11': [{ value: '1101', title: '市辖区', hasChildren: true }],
  '1101': [{ value: '110101', title: '东城区', hasChildren: false }],
};
/** A refusal as axios answers it when the status is whitelisted (the http client's `silent`). */
const refused = (code: number, msg: string, data: unknown = null) =>
  Object.assign(new Error(`status ${code}`), { response: { status: code, data: { code, msg, data } }, silent: true });

type Config = { headers?: Record<string, string>; meta?: { isToken?: boolean } };
type Call = Config & { params: Record<string, unknown> };
const calls = (path: string): Call[] =>
  mockGet.mock.calls
    .filter(([u]) => u === `${BASE}/${path}`)
    .map(([, params, c]) => ({ ...(c as Config), params: params as Record<string, unknown> }));

function mount(path = '/register') {
  const router = createMemoryRouter(
    [
      { path: '/register', element: <RegisterPage /> },
      { path: '/register/status', element: <StatusPage /> },
      { path: '/login', element: <div>login page</div> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
const click = (name: RegExp) => fireEvent.click(screen.getByRole('button', { name }));

let state: 'free' | 'registered' | 'blocked' = 'free';
let sendRefusal: Error | null = null;

beforeEach(async () => {
  await i18n.changeLanguage('zh');
  state = 'free';
  sendRefusal = null;
  mockGet.mockReset();
  mockPost.mockReset();
  mockGet.mockImplementation(async (url: string, params?: object) => {
    const q = (params ?? {}) as Record<string, unknown>;
    if (url === '/api/blade-system/tenant/info') return null;
    if (url === `${BASE}/verify`) return { state };
    if (url === `${BASE}/verification`) {
      if (sendRefusal) throw sendRefusal;
      return true;
    }
    if (url === `${BASE}/verificat`) {
      if (q.verificationCode !== '123456') throw refused(400, '验证码错误');
      return { ticket: 'T-1' };
    }
    if (url === `${BASE}/reviewed`) return { status: 'pending' };
    if (url === '/api/blade-system/region/lazy-tree') return REGIONS[String(q.parentCode)] ?? [];
    throw new Error(`unexpected ${url}`);
  });
  mockPost.mockImplementation(async (url: string) => {
    if (url === `${BASE}/register`) return true;
    throw new Error(`unexpected ${url}`);
  });
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

/** Step 1 and 2: the phone is free, a code is sent and checked. */
async function throughCode() {
  type('手机号码', '13912345678');
  click(/下一步/);
  await screen.findByText('验证码将发送至 13912345678', {}, { timeout: 10_000 });
  click(/获取验证码/);
  await screen.findByText('验证码已发送，5 分钟内有效');
  type('短信验证码', '123456');
  click(/下一步/);
  await screen.findByLabelText('客户名称', {}, { timeout: 10_000 });
}

describe('client registration', () => {
  it('walks phone → code → form → the spec alert → the status page, with the tenant as Tenant-Id', async () => {
    const router = mount();
    type('租户编号', '000000');
    await throughCode();

    // Public calls: no token, the tenant in the header, the user agent with the code.
    const [verify] = calls('verify');
    expect(verify.headers).toEqual({ 'Tenant-Id': '000000' });
    expect(verify.meta?.isToken).toBe(false);
    const [send] = calls('verification');
    expect(send.params).toMatchObject({ operatorTel: '13912345678', type: 1, userAgent: navigator.userAgent });
    expect(calls('verificat')[0].params).toMatchObject({ verificationCode: '123456', type: 1 });

    // The phone is fixed; the credit code is checked as it is typed (GB 32100 check character).
    expect(input('手机号码').disabled).toBe(true);
    type('统一社会信用代码', '91110108MA01ABCD0A');
    await screen.findByText(validateCreditCode('91110108MA01ABCD0A')!.zh);
    type('统一社会信用代码', '91110108MA01ABCD0B');
    type('客户名称', '东城示范商铺');
    type('联系人', '张三');
    type('登录密码', 'Str0ng#Pass');
    type('确认密码', 'Str0ng#Pass');

    // The region cascader, for this tenant without a login.
    fireEvent.mouseDown(
      screen.getByTestId('region-cascader').querySelector('.ant-select-selector') ??
        screen.getByTestId('region-cascader'),
    );
    fireEvent.click(await screen.findByText('北京市'));
    fireEvent.click(await screen.findByText('市辖区'));
    fireEvent.click(await screen.findByText('东城区'));

    // The client type from the definition's options.
    fireEvent.mouseDown(input('客户类型'));
    fireEvent.click(await screen.findByText('商铺'));

    click(/提交注册/);
    expect((await screen.findAllByText('注册提示', {}, { timeout: 10_000 })).length).toBeGreaterThan(0);
    expect(screen.getAllByText('注册申请已提交,请耐心等待管理员通过!').length).toBeGreaterThan(0);
    const [url, body, config] = mockPost.mock.calls[0] as [string, Record<string, unknown>, Config];
    expect(url).toBe(`${BASE}/register`);
    expect(body).toMatchObject({
      clientName: '东城示范商铺',
      clientType: 1,
      creditCode: '91110108MA01ABCD0B',
      contactName: '张三',
      operatorTel: '13912345678',
      regionCode: '110101',
      password: 'Str0ng#Pass',
      ticket: 'T-1',
    });
    expect(body).not.toHaveProperty('confirm');
    expect(config.headers).toEqual({ 'Tenant-Id': '000000' });

    click(/确\s*定/);
    await waitFor(() => expect(router.state.location.pathname).toBe('/register/status'));
    await screen.findByText('审核中', {}, { timeout: 10_000 });
  }, 60_000);

  it('tells a registered phone so and offers the status page; a blocked one gets a neutral message', async () => {
    state = 'registered';
    mount();
    type('手机号码', '13912345678');
    click(/下一步/);
    await screen.findByText('该手机号已注册，可查询审核进度', {}, { timeout: 10_000 });
    expect(screen.getAllByRole('link', { name: /查询注册进度/ })[0].getAttribute('href')).toContain(
      '/register/status?phone=13912345678',
    );
    expect(calls('verification')).toHaveLength(0);

    state = 'blocked';
    click(/下一步/);
    await screen.findByText('当前无法使用该手机号注册，如有疑问请联系平台管理员');
    expect(screen.queryByText(/黑名单/)).toBeNull();
  }, 30_000);

  it('counts 60 s down after a code, and shows the server’s 429 text', async () => {
    mount();
    type('手机号码', '13912345678');
    click(/下一步/);
    await screen.findByText('验证码将发送至 13912345678', {}, { timeout: 10_000 });
    click(/获取验证码/);
    const button = await screen.findByTestId('send-code');
    await waitFor(() => expect(button.textContent).toMatch(/60\s*秒后重新获取/));
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(button.textContent).toMatch(/59\s*秒后重新获取/), { timeout: 3000 });

    // A refusal (here the per-phone limit) is the server's own text.
    cleanup();
    sendRefusal = refused(429, '发送太频繁，请 42 秒后再试');
    mount();
    type('手机号码', '13912345678');
    click(/下一步/);
    await screen.findByText('验证码将发送至 13912345678', {}, { timeout: 10_000 });
    click(/获取验证码/);
    await screen.findByText('发送太频繁，请 42 秒后再试');
    await waitFor(() => expect(screen.getByTestId('send-code').textContent).toMatch(/4[12]\s*秒后重新获取/));
  }, 30_000);

  it('shows a wrong code on the code field and stays on the step', async () => {
    mount();
    type('手机号码', '13912345678');
    click(/下一步/);
    await screen.findByText('验证码将发送至 13912345678', {}, { timeout: 10_000 });
    type('短信验证码', '000000');
    click(/下一步/);
    await screen.findByText('验证码错误');
    expect(screen.queryByLabelText('客户名称')).toBeNull();
  }, 30_000);
});
