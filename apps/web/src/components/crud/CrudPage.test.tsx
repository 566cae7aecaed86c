import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import '../../i18n';
import { get, post } from '../../api/http';
import { useSession } from '../../stores/session';
import CrudPage from './CrudPage';
import { renderStats } from './cells';
import type { CrudSchema } from './types';
import { dict } from '@atrium/contract/resources/system/dict';
import { menu } from '@atrium/contract/resources/system/menu';
import { registerResourceTexts } from './fromDefinition';

// Fixture labels: the texts of two definitions.
registerResourceTexts(dict);
registerResourceTexts(menu);

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const CATEGORIES = [
  { id: 'd1', dictKey: '1', dictValue: '高层' },
  { id: 'd2', dictKey: '2', dictValue: '中层' },
];
const records = Array.from({ length: 200 }, (_, i) => ({
  id: String(1000 + i),
  name: `row ${i}`,
  code: `c${i}`,
  category: (i % 2) + 1,
  sort: i,
  version: 1,
}));

const schema: CrudSchema = {
  base: '/api/test/thing',
  title: 'dict:label',
  codes: { add: 'thing_add', edit: 'thing_edit', delete: 'thing_delete', view: 'thing_view' },
  fields: [
    {
      name: 'name',
      label: 'dict:fields.dictValue.label',
      required: true,
      requiredMessage: 'dict:fields.dictValue.required',
      search: true,
    },
    { name: 'code', label: 'dict:fields.code.label' },
    { name: 'category', label: 'dict:fields.dictKey.label', type: 'select', dict: 'post_category' },
    { name: 'sort', label: 'dict:fields.sort.label', type: 'number' },
  ],
};

function mount(s: CrudSchema) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree = (
    <QueryClientProvider client={client}>
      <App>
        <CrudPage schema={s} />
      </App>
    </QueryClientProvider>
  );
  const view = render(tree);
  return { ...view, again: () => view.rerender(tree) };
}

beforeEach(() => {
  useSession.setState({ permission: { thing_add: true, thing_edit: true, thing_delete: true, thing_view: true } });
  mockGet.mockReset();
  mockPost.mockReset();
});
afterEach(async () => {
  cleanup();
  // Let antd's timers and React's scheduler finish before the environment is torn down.
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('CrudPage', () => {
  it('renders 200 rows, and a re-render with the same data re-renders no cell', async () => {
    mockGet.mockImplementation(async (url: string) => {
      if (url.endsWith('/dictionary')) return CATEGORIES;
      if (url === '/api/test/thing/list') return { records, total: 200, size: 200, current: 1, pages: 1 };
      throw new Error(`unexpected ${url}`);
    });
    const view = mount({ ...schema, pageSize: 200 });
    await screen.findByText('row 199', {}, { timeout: 10_000 });
    // The dictionary labels replace the keys.
    await waitFor(() => expect(screen.getAllByText('中层')).toHaveLength(100));
    const rows = view.container.querySelectorAll('tbody tr.ant-table-row');
    expect(rows).toHaveLength(200);

    const afterLoad = renderStats.cells;
    // 4 data columns × 200 rows; the dictionary arriving may re-render the category column once more.
    expect(afterLoad).toBeGreaterThanOrEqual(800);
    expect(afterLoad).toBeLessThanOrEqual(800 + 200 * 2);
    expect(mockGet.mock.calls.filter(([u]) => u.endsWith('/dictionary'))).toHaveLength(1);

    // Selecting a row re-renders the page and the table, but no data cell.
    const actionsBefore = renderStats.actions;
    fireEvent.click(within(rows[3] as HTMLElement).getByRole('checkbox'));
    await waitFor(() =>
      expect((within(rows[3] as HTMLElement).getByRole('checkbox') as HTMLInputElement).checked).toBe(true),
    );
    view.again();
    expect(renderStats.cells).toBe(afterLoad);
    expect(renderStats.actions).toBe(actionsBefore);
  }, 30_000);

  it('validates on blur with the field message, and sends the dialog as the body', async () => {
    mockGet.mockImplementation(async (url: string) => {
      if (url.endsWith('/dictionary')) return CATEGORIES;
      return { records: [], total: 0, size: 10, current: 1, pages: 0 };
    });
    mockPost.mockResolvedValue({ id: '1' });
    // A required number whose default is 0 is filled (the validator must not read it as a missing string).
    mount({
      ...schema,
      fields: schema.fields.map((f) => (f.name === 'sort' ? { ...f, required: true, default: 0 } : f)),
    });
    fireEvent.click(await screen.findByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText('字典名称');
    fireEvent.focus(name);
    fireEvent.blur(name);
    await within(dialog).findByText('请输入字典名称');
    fireEvent.change(name, { target: { value: '巡检员' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(mockPost).toHaveBeenCalled());
    expect(mockPost.mock.calls[0][0]).toBe('/api/test/thing/submit');
    expect(mockPost.mock.calls[0][1]).toMatchObject({ name: '巡检员', sort: 0 });
    await screen.findByText('新增成功');
  }, 30_000);

  it('lazy tree: loads children on expand, and "add child" prefills the parent', async () => {
    mockGet.mockImplementation(async (url: string, params?: object) => {
      const p = params as Record<string, unknown> | undefined;
      if (url === '/api/test/thing/lazy-list' && p?.parentId === '0')
        return [
          { id: '1', name: 'root', parentId: '0', hasChildren: true },
          { id: '2', name: 'leaf', parentId: '0', hasChildren: false },
        ];
      if (url === '/api/test/thing/lazy-list' && p?.parentId === '1')
        return [{ id: '11', name: 'child', parentId: '1', hasChildren: false }];
      if (url === '/api/test/thing/tree') return [{ id: '1', key: '1', value: '1', title: 'root', children: [] }];
      return [];
    });
    const treeSchema: CrudSchema = {
      ...schema,
      tree: { lazy: true },
      fields: [
        ...schema.fields,
        {
          name: 'parentId',
          label: 'menu:fields.parentId.label',
          type: 'tree',
          treeUrl: '/api/test/thing/tree',
          root: '0',
          column: false,
        },
      ],
    };
    const view = mount(treeSchema);
    await screen.findByText('root');
    expect(view.container.querySelector('.ant-pagination')).toBeNull();
    expect(screen.queryByText('child')).toBeNull();
    const expand = view.container.querySelector(
      'tbody tr.ant-table-row button.ant-table-row-expand-icon',
    ) as HTMLElement;
    fireEvent.click(expand);
    await screen.findByText('child');
    expect(mockGet).toHaveBeenCalledWith('/api/test/thing/lazy-list', { parentId: '1' });

    const rootRow = screen.getByText('root').closest('tr') as HTMLElement;
    fireEvent.click(within(rootRow).getByRole('button', { name: '新增子项' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByTitle('root')).toBeTruthy());
  }, 30_000);
});
