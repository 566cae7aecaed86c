import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18n from '../i18n';
import { get, http } from '../api/http';
import Login from './Login';

// The http layer only (as the other component tests stub it): the login page and its call wrappers are real.
vi.mock('../api/http', () => ({ http: { get: vi.fn(), post: vi.fn() }, get: vi.fn(), post: vi.fn() }));
const httpGet = vi.mocked(http.get);
const httpPost = vi.mocked(http.post);

const TOKEN = {
  access_token: 'a',
  refresh_token: 'r',
  token_type: 'bearer',
  expires_in: 3000,
  tenant_id: '000000',
  user_id: '1',
  account: 'admin',
  user_name: 'admin',
  real_name: 'Admin',
  role_name: 'administrator',
};

let required = true;

beforeEach(async () => {
  await i18n.changeLanguage('zh');
  vi.mocked(get).mockResolvedValue(null); // the tenant of this host name: none
  httpGet.mockReset();
  httpPost.mockReset();
  httpGet.mockImplementation(async (url: string) => {
    if (url === '/api/blade-auth/oauth/captcha')
      return { data: { key: 'k-1', image: 'data:image/svg+xml;base64,PHN2Zy8+', required } };
    throw new Error(`unexpected GET ${url}`);
  });
  httpPost.mockResolvedValue({ data: TOKEN });
});
afterEach(async () => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

function mount() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <Login /> },
      { path: '/wel/index', element: <div>home page</div> },
    ],
    { initialEntries: ['/login'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}
const type = (placeholder: string, value: string) =>
  fireEvent.change(screen.getByPlaceholderText(placeholder), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
/** The token call's grant and captcha headers. */
const tokenCall = () => {
  const [url, , config] = httpPost.mock.calls[0] as [
    string,
    unknown,
    { params: Record<string, string>; headers: Record<string, string> },
  ];
  return { url, grant: config.params.grant_type, headers: config.headers };
};

describe('Login follows the server on the captcha', () => {
  it('captcha required: the field shows, an empty code is refused, the captcha grant carries key and code', async () => {
    required = true;
    mount();
    await waitFor(() => expect(document.querySelector('img.atrium-captcha')).toBeTruthy());
    expect(screen.getByPlaceholderText('请输入验证码')).toBeTruthy();
    type('请输入用户名', 'admin');
    type('请输入密码', 'admin');
    submit();
    await waitFor(() => expect(screen.getByText('请输入验证码')).toBeTruthy());
    expect(httpPost).not.toHaveBeenCalled();

    type('请输入验证码', 'ab12');
    submit();
    await waitFor(() => expect(httpPost).toHaveBeenCalledTimes(1));
    const call = tokenCall();
    expect(call.url).toBe('/api/blade-auth/oauth/token');
    expect(call.grant).toBe('captcha');
    expect(call.headers).toMatchObject({ 'Captcha-Key': 'k-1', 'Captcha-Code': 'ab12' });
  });

  it('captcha not required (ATRIUM_CAPTCHA=off): no captcha field, signs in with the password grant', async () => {
    required = false;
    const router = mount();
    await waitFor(() => expect(httpGet).toHaveBeenCalledWith('/api/blade-auth/oauth/captcha', expect.anything()));
    await waitFor(() => expect(screen.queryByPlaceholderText('请输入验证码')).toBeNull());
    expect(document.querySelector('img.atrium-captcha')).toBeNull();
    type('请输入用户名', 'admin');
    type('请输入密码', 'admin');
    submit();
    await waitFor(() => expect(httpPost).toHaveBeenCalledTimes(1));
    const call = tokenCall();
    expect(call.grant).toBe('password');
    expect(call.headers).not.toHaveProperty('Captcha-Key');
    expect(call.headers).not.toHaveProperty('Captcha-Code');
    await waitFor(() => expect(router.state.location.pathname).toBe('/wel/index'));
  });
});
