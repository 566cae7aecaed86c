import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { blackinfo } from '@atrium/contract/resources/blacklist/blackinfo';
import { post as postDef } from '@atrium/contract/resources/system/post';
import i18n from '../../i18n';
import { get, post } from '../../api/http';
import { useSession } from '../../stores/session';
import { definitionIn, registry, screenOf } from '../../app/registry';
import ResourcePage from './ResourcePage';
import { resourceSchema } from './fromDefinition';
import { renderScreen } from '../../test-render.tsx';

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const ENTRIES = [
  { id: '7', type: 1, value: '13800000000', reason: 'spam', expireTime: null, status: 1, version: 1 },
  {
    id: '8',
    type: 4,
    value: 'bad.example',
    reason: '',
    expireTime: '2030-01-01T00:00:00+08:00',
    status: 0,
    version: 1,
  },
];

const listCalls = () => mockGet.mock.calls.filter(([u]) => u.endsWith('/list')).map(([, p]) => p as object);

beforeEach(async () => {
  const codes = ['blackinfo_add', 'blackinfo_edit', 'blackinfo_delete', 'blackinfo_view', 'post_add', 'post_view'];
  useSession.setState({ permission: Object.fromEntries(codes.map((c) => [c, true])) });
  mockGet.mockReset();
  mockPost.mockReset();
  mockGet.mockImplementation(async (url: string) => {
    // No black_type dictionary is seeded: the definition's own labels are shown.
    if (url.endsWith('/dictionary')) return [];
    if (url.endsWith('/list')) return { records: ENTRIES, total: 2, size: 10, current: 1, pages: 1 };
    throw new Error(`unexpected ${url}`);
  });
  await i18n.changeLanguage('zh');
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('a screen from a definition alone', () => {
  it('labels, option labels and required messages come from the definition, in the current language', async () => {
    renderScreen(<ResourcePage def={blackinfo} />);
    await screen.findByText('黑名单信息');
    const row = (await screen.findByText('13800000000')).closest('tr') as HTMLElement;
    expect(within(row).getByText('手机号')).toBeTruthy();
    expect(within(row).getByText('启用')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    // The status default (1) is filled; type and value are required, with the server's texts.
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s*交/ }));
    await within(dialog).findByText('请选择类型');
    await within(dialog).findByText('请输入值');
    expect(within(dialog).getByPlaceholderText('留空表示永久')).toBeTruthy();
    expect(mockPost).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));

    await act(() => i18n.changeLanguage('en'));
    await screen.findByText('Blacklist entries');
    expect(screen.getAllByText('Phone').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Expires').length).toBeGreaterThan(0);
  }, 60_000);

  it("an 'in' search sends a comma list; a date range sends _dategt / _datelt", async () => {
    const view = renderScreen(<ResourcePage def={blackinfo} />);
    await screen.findByText('13800000000');
    const search = view.container.querySelector('form') as HTMLElement;

    const typeSelect = within(search).getByLabelText('类型');
    fireEvent.mouseDown(typeSelect);
    for (const label of ['手机号', '邮箱域名']) {
      const option = await waitFor(() => {
        const el = Array.from(document.querySelectorAll('.ant-select-item-option')).find(
          (o) => o.textContent === label,
        );
        expect(el).toBeTruthy();
        return el as HTMLElement;
      });
      fireEvent.click(option);
    }

    const [from, to] = Array.from(search.querySelectorAll('.ant-picker-range input')) as HTMLInputElement[];
    fireEvent.mouseDown(from);
    fireEvent.focus(from);
    fireEvent.change(from, { target: { value: '2026-01-01 00:00:00' } });
    fireEvent.keyDown(from, { key: 'Enter', code: 'Enter' });
    fireEvent.focus(to);
    fireEvent.change(to, { target: { value: '2026-01-31 23:59:59' } });
    fireEvent.keyDown(to, { key: 'Enter', code: 'Enter' });

    fireEvent.click(within(search).getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ type: '1,4' }));
    const sent = listCalls().at(-1) as Record<string, string>;
    expect(new Date(sent.expireTime_dategt).getTime()).toBe(new Date(2026, 0, 1, 0, 0, 0).getTime());
    expect(new Date(sent.expireTime_datelt).getTime()).toBe(new Date(2026, 0, 31, 23, 59, 59).getTime());
    expect(sent).not.toHaveProperty('expireTime');
  }, 60_000);

  it('every resource list offers the creation-time range (createTime_dategt / createTime_datelt)', async () => {
    const view = renderScreen(<ResourcePage def={blackinfo} />);
    await screen.findByText('13800000000');
    const search = view.container.querySelector('form') as HTMLElement;
    expect(within(search).getByText('创建时间')).toBeTruthy();
    const pickers = Array.from(search.querySelectorAll('.ant-picker-range'));
    const [from, to] = Array.from(pickers.at(-1)!.querySelectorAll('input')) as HTMLInputElement[];
    fireEvent.mouseDown(from);
    fireEvent.focus(from);
    fireEvent.change(from, { target: { value: '2026-02-01 00:00:00' } });
    fireEvent.keyDown(from, { key: 'Enter', code: 'Enter' });
    fireEvent.focus(to);
    fireEvent.change(to, { target: { value: '2026-02-28 23:59:59' } });
    fireEvent.keyDown(to, { key: 'Enter', code: 'Enter' });
    fireEvent.click(within(search).getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(listCalls().at(-1)).toHaveProperty('createTime_dategt'));
    const sent = listCalls().at(-1) as Record<string, string>;
    expect(new Date(sent.createTime_dategt).getTime()).toBe(new Date(2026, 1, 1, 0, 0, 0).getTime());
    expect(new Date(sent.createTime_datelt).getTime()).toBe(new Date(2026, 1, 28, 23, 59, 59).getTime());
  }, 60_000);

  it('derives the schema: codes, columns, rules from the contract', () => {
    const s = resourceSchema(postDef);
    expect(s.codes).toEqual({ add: 'post_add', edit: 'post_edit', delete: 'post_delete', view: 'post_view' });
    const remark = s.fields.find((f) => f.name === 'remark')!;
    expect(remark.column).toBe(false);
    expect(s.fields.find((f) => f.name === 'postCode')).toMatchObject({ sort: true, search: 'like', required: true });
    expect(i18n.t('post:fields.category.required', { lng: 'en' })).toBe('Select the post category');
  });

  it('types the records by the definition', () => {
    type Entry = Parameters<NonNullable<ReturnType<typeof resourceSchema<typeof blackinfo.fields>>['onRowClick']>>[0];
    expectTypeOf<Entry['type']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<Entry['value']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Entry['id']>().toEqualTypeOf<string>();
  });
});

describe('the registry finds screens by convention', () => {
  it('keys definition files and feature pages by path', () => {
    expect(screenOf('../../../../packages/contract/src/resources/blacklist/blackinfo.ts')).toBe(
      '/blacklist/blackinfo/index',
    );
    expect(screenOf('../features/system/role.page.tsx')).toBe('/system/role/index');
    expect(definitionIn({ post: postDef, other: 1 }, '/system/post/index')).toBe(postDef);
    expect(registry['/blacklist/blackinfo/index']).toBeTruthy();
    expect(registry['/system/post/index']).toBeTruthy();
    expect(registry['/system/user/index']).toBeTruthy();
  });

  it('the post screen loads from its definition', async () => {
    const Post = registry['/system/post/index'];
    renderScreen(<Post />);
    await screen.findByText('岗位管理', {}, { timeout: 10_000 });
    expect(screen.getAllByText('岗位编号').length).toBeGreaterThan(0);
  }, 60_000);
});
