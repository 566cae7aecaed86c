import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { outbox } from '@atrium/contract/resources/resource/outbox';
import { sms } from '@atrium/contract/resources/resource/sms';
import { smtp } from '@atrium/contract/resources/resource/smtp';
import i18n from '../../i18n';
import { get, post } from '../../api/http';
import { useSession } from '../../stores/session';
import { registry } from '../../app/registry';
import ResourcePage from '../../components/crud/ResourcePage';
import { renderScreen } from '../../test-render.tsx';

/** The outbox, SMS and SMTP screens come from their definitions alone (docs/outbox.md). */
vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);

const rows: Record<string, object[]> = {
  outbox: [
    {
      id: '11',
      channel: 'sms',
      recipient: '13800000001',
      content: '您的验证码为 482913',
      status: 2,
      attempts: 1,
      provider: 'outbox',
      sentTime: '2026-11-23T10:00:00+08:00',
      version: 1,
    },
  ],
  sms: [{ id: '21', smsCode: 'hook', category: 4, templateId: 'T1', signName: 'Atrium', status: 2, version: 1 }],
  smtp: [
    {
      id: '31',
      name: 'office',
      host: 'smtp.example.com',
      port: 465,
      tlsMode: 3,
      fromAddress: 'a@b.cn',
      status: 1,
      version: 1,
    },
  ],
};

beforeEach(async () => {
  const codes = ['outbox_view', 'sms_add', 'sms_edit', 'sms_enable', 'smtp_add', 'smtp_enable', 'smtp_test'];
  useSession.setState({ permission: Object.fromEntries(codes.map((c) => [c, true])) });
  mockGet.mockReset();
  vi.mocked(post).mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/dictionary')) return [];
    const code = url.split('/').at(-2)!;
    if (url.endsWith('/list')) return { records: rows[code] ?? [], total: 1, size: 10, current: 1, pages: 1 };
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('resource screens from their definitions', () => {
  it('are registered under the menu paths', () => {
    for (const path of ['/resource/outbox/index', '/resource/sms/index', '/resource/smtp/index'])
      expect(registry[path], path).toBeTruthy();
  });

  it('the outbox lists messages read-only, in both languages', async () => {
    // Even a user holding add / edit / delete codes by that name gets no write button: the definition is read-only.
    const held = ['outbox_view', 'outbox_add', 'outbox_edit', 'outbox_delete'];
    useSession.setState({ permission: Object.fromEntries(held.map((c) => [c, true])) });
    renderScreen(<ResourcePage def={outbox} />);
    await screen.findByText('发件箱');
    const row = (await screen.findByText('13800000001')).closest('tr') as HTMLElement;
    expect(within(row).getByText('短信')).toBeTruthy();
    expect(within(row).getByText('已发送')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    expect(within(row).getByRole('button', { name: /查\s*看/ })).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
    await screen.findByText('Outbox');
    expect(screen.getAllByText('Sent').length).toBeGreaterThan(0);
  }, 60_000);

  it('SMS and SMTP configurations show their categories and never a secret column', async () => {
    renderScreen(<ResourcePage def={sms} />);
    const row = (await screen.findByText('hook')).closest('tr') as HTMLElement;
    expect(within(row).getByText('HTTP 回调')).toBeTruthy();
    expect(within(row).getByText('启用中')).toBeTruthy();
    expect(screen.queryByText('SecretKey')).toBeNull();
    cleanup();
    renderScreen(<ResourcePage def={smtp} />);
    const r2 = (await screen.findByText('office')).closest('tr') as HTMLElement;
    expect(within(r2).getByText('SSL/TLS')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s*交/ }));
    await within(dialog).findByText('请输入服务器');
    await within(dialog).findByText('请输入发件地址');
  }, 60_000);
});
