import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { defineResource } from '@atrium/contract';
import i18n from '../../i18n';
import { get, post } from '../../api/http';
import { useSession } from '../../stores/session';
import ResourcePage from './ResourcePage';
import { rulesOf } from './fieldTypes';
import { renderScreen } from '../../test-render.tsx';

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

/** A record with a calendar day (kind 'date'): it travels as YYYY-MM-DD (docs/resources.md "Kinds and columns"). */
const release = defineResource({
  code: 'kindsrelease',
  group: 'demo',
  base: '/api/demo/kindsrelease',
  label: { zh: '发布', en: 'Releases' },
  scope: 'tenant',
  createTimeRange: false,
  fields: {
    title: { kind: 'text', label: { zh: '标题', en: 'Title' }, required: true },
    releaseDate: {
      kind: 'date',
      label: { zh: '发布日期', en: 'Release date' },
      required: true,
      search: 'range',
    },
  },
});

const listCalls = () => mockGet.mock.calls.filter(([u]) => u.endsWith('/list')).map(([, p]) => p as object);

/** Types a value into an antd picker input and confirms it. */
function pick(input: HTMLInputElement, value: string) {
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
}

beforeEach(async () => {
  useSession.setState({ permission: { kindsrelease_add: true, kindsrelease_edit: true } });
  mockGet.mockReset();
  mockPost.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    if (url.endsWith('/list'))
      return {
        records: [{ id: '1', title: 'first', releaseDate: '2026-11-27', version: 1 }],
        total: 1,
        size: 10,
        current: 1,
        pages: 1,
      };
    throw new Error(`unexpected ${url}`);
  });
  mockPost.mockResolvedValue({ id: '2', version: 1 });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('a date field is a calendar day', () => {
  it('shows the day answered, and sends YYYY-MM-DD from the dialog and the range search', async () => {
    const view = renderScreen(<ResourcePage def={release} />);
    const row = (await screen.findByText('first')).closest('tr') as HTMLElement;
    expect(within(row).getByText('2026-11-27')).toBeTruthy();

    // The range search names the first and the last day.
    const search = view.container.querySelector('form') as HTMLElement;
    const [from, to] = Array.from(search.querySelectorAll('.ant-picker-range input')) as HTMLInputElement[];
    pick(from, '2026-11-01');
    pick(to, '2026-11-30');
    fireEvent.click(within(search).getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(listCalls().at(-1)).toHaveProperty('releaseDate_dategt'));
    expect(listCalls().at(-1)).toMatchObject({ releaseDate_dategt: '2026-11-01', releaseDate_datelt: '2026-11-30' });

    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('标题'), { target: { value: 'second' } });
    pick(within(dialog).getByLabelText('发布日期') as HTMLInputElement, '2026-12-24');
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(mockPost).toHaveBeenCalled());
    expect(mockPost.mock.calls[0][1]).toMatchObject({ title: 'second', releaseDate: '2026-12-24' });
  }, 60_000);

  it('asks for a missing day with the server’s text: "Select the release date"', async () => {
    await i18n.changeLanguage('en');
    renderScreen(<ResourcePage def={release} />);
    await screen.findByText('first');
    fireEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /Submit/ }));
    await within(dialog).findByText('Select the release date');
    await within(dialog).findByText('Enter the title');
    expect(mockPost).not.toHaveBeenCalled();
  }, 60_000);
});

describe('hand-written schemas say the same sentences', () => {
  it('"Enter the {field}" names the field as a noun in English, acronyms kept', () => {
    const t = i18n.getFixedT('en');
    const message = (label: string) =>
      (rulesOf({ name: 'x', label, required: true }, t, 'en')[0] as { message: string }).message;
    expect(message('Title')).toBe('Enter the title');
    expect(message('Client ID')).toBe('Enter the client ID');
    expect(
      (rulesOf({ name: 'x', label: '标题', required: true }, i18n.getFixedT('zh'), 'zh')[0] as { message: string })
        .message,
    ).toBe('请输入标题');
  });
});
