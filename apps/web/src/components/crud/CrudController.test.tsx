import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { business, defineResource } from '@atrium/contract';
import '../../i18n';
import { get, post } from '../../api/http';
import { useSession } from '../../stores/session';
import CrudPage from './CrudPage';
import ResourcePage from './ResourcePage';
import type { CrudSchema } from './types';
import { dict } from '@atrium/contract/resources/system/dict';
import { menu } from '@atrium/contract/resources/system/menu';
import { registerResourceTexts } from './fromDefinition';
import { renderScreen } from '../../test-render.tsx';

// Fixture labels: the texts of two definitions.
registerResourceTexts(dict);
registerResourceTexts(menu);

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn() }));
const mockGet = vi.mocked(get);
const mockPost = vi.mocked(post);

const A = { id: '11', name: 'alpha', code: 'a-1', sort: 1, version: 3 };
const B = { id: '22', name: 'bravo', code: 'b-2', sort: 2, version: 7 };

const schema: CrudSchema = {
  base: '/api/test/thing',
  title: 'dict:label',
  codes: { add: 'thing_add', edit: 'thing_edit', delete: 'thing_delete', view: 'thing_view' },
  fields: [
    { name: 'name', label: 'dict:fields.dictValue.label', required: true, search: true },
    { name: 'code', label: 'dict:fields.code.label', sort: true },
    { name: 'sort', label: 'dict:fields.sort.label', type: 'number', search: 'range', sort: true },
  ],
};

/** The list answers A and B; detail answers each by id (A slowly when asked to). */
function serve(opts: { slowA?: boolean } = {}) {
  mockGet.mockImplementation(async (url: string, params?: object) => {
    const p = (params ?? {}) as Record<string, unknown>;
    if (url.endsWith('/list')) return { records: [A, B], total: 2, size: 10, current: 1, pages: 1 };
    if (url.endsWith('/detail')) {
      if (p.id === A.id && opts.slowA) await new Promise((r) => setTimeout(r, 300));
      return { ...(p.id === A.id ? A : B) };
    }
    if (url.endsWith('/dictionary')) return [];
    throw new Error(`unexpected ${url}`);
  });
}

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const visibleDialog = () => screen.getAllByRole('dialog').at(-1)!;
const listCalls = () => mockGet.mock.calls.filter(([u]) => u.endsWith('/list')).map(([, p]) => p as object);

beforeEach(() => {
  useSession.setState({
    permission: {
      thing_add: true,
      thing_edit: true,
      thing_delete: true,
      thing_view: true,
      thing_stop: true,
      thing_retire: true,
    },
  });
  mockGet.mockReset();
  mockPost.mockReset();
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 50)));
});

describe('the record dialog', () => {
  it('edit A, cancel, edit B: shows B and submits exactly B’s values under B’s id', async () => {
    serve();
    mockPost.mockResolvedValue({});
    renderScreen(<CrudPage schema={schema} />);
    await screen.findByText('alpha');

    fireEvent.click(within(rowOf('alpha')).getByRole('button', { name: /编\s*辑/ }));
    await waitFor(() => expect(within(visibleDialog()).getByLabelText('字典名称')).toHaveProperty('value', 'alpha'));
    fireEvent.change(within(visibleDialog()).getByLabelText('字典编号'), { target: { value: 'typed into A' } });
    fireEvent.click(within(visibleDialog()).getByRole('button', { name: /取\s*消/ }));

    fireEvent.click(within(rowOf('bravo')).getByRole('button', { name: /编\s*辑/ }));
    await waitFor(() => expect(within(visibleDialog()).getByLabelText('字典名称')).toHaveProperty('value', 'bravo'));
    const dialog = visibleDialog();
    expect(within(dialog).getByLabelText('字典编号')).toHaveProperty('value', 'b-2');
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(mockPost).toHaveBeenCalledTimes(1));
    const [url, body] = mockPost.mock.calls[0];
    expect(url).toBe('/api/test/thing/submit');
    expect(body).toEqual({ id: '22', version: 7, name: 'bravo', code: 'b-2', sort: 2 });
    await screen.findByText('更新成功');
  }, 60_000);

  it('a slow record of an earlier click never replaces a later dialog', async () => {
    serve({ slowA: true });
    renderScreen(<CrudPage schema={schema} />);
    await screen.findByText('alpha');
    fireEvent.click(within(rowOf('alpha')).getByRole('button', { name: /编\s*辑/ }));
    fireEvent.click(within(rowOf('bravo')).getByRole('button', { name: /编\s*辑/ }));
    await waitFor(() => expect(within(visibleDialog()).getByLabelText('字典名称')).toHaveProperty('value', 'bravo'));
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(within(visibleDialog()).getByLabelText('字典名称')).toHaveProperty('value', 'bravo');
  }, 60_000);

  it('新增 after an edit starts empty', async () => {
    serve();
    renderScreen(<CrudPage schema={schema} />);
    await screen.findByText('alpha');
    fireEvent.click(within(rowOf('alpha')).getByRole('button', { name: /编\s*辑/ }));
    await waitFor(() => expect(within(visibleDialog()).getByLabelText('字典名称')).toHaveProperty('value', 'alpha'));
    fireEvent.click(within(visibleDialog()).getByRole('button', { name: /取\s*消/ }));
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    await waitFor(() => expect(within(visibleDialog()).getByText('新增')).toBeTruthy());
    const dialog = visibleDialog();
    expect(within(dialog).getByLabelText('字典名称')).toHaveProperty('value', '');
    expect(within(dialog).getByLabelText('字典编号')).toHaveProperty('value', '');
  }, 60_000);
});

describe('list parameters', () => {
  it('a declared list route (listRoute) replaces base/listPath, with the same filters and paging', async () => {
    mockGet.mockImplementation(async (url: string) => {
      if (url === business.clientInfoVerify.path) return { records: [B], total: 1, size: 10, current: 1, pages: 1 };
      if (url.endsWith('/dictionary')) return [];
      throw new Error(`unexpected ${url}`);
    });
    renderScreen(<CrudPage schema={{ ...schema, listPath: 'page', listRoute: business.clientInfoVerify }} />);
    await screen.findByText('bravo');
    const [url, params] = mockGet.mock.calls.find(([u]) => u === business.clientInfoVerify.path)!;
    expect(url).toBe('/api/blade-business/clientInfo/clientInfoVerify');
    expect(params).toMatchObject({ current: 1 });
    expect(mockGet.mock.calls.some(([u]) => u.endsWith('/page'))).toBe(false);
  }, 60_000);

  it('a sortable column sends ascs, then descs', async () => {
    serve();
    const view = renderScreen(<CrudPage schema={schema} />);
    await screen.findByText('alpha');
    const header = () =>
      Array.from(view.container.querySelectorAll('th')).find((th) => th.textContent?.includes('字典编号'))!;
    fireEvent.click(header());
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ ascs: 'code' }));
    fireEvent.click(header());
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ descs: 'code' }));
    expect(listCalls().at(-1)).not.toHaveProperty('ascs');
  }, 60_000);

  it('a number range search sends <name>_gte / <name>_lte', async () => {
    serve();
    renderScreen(<CrudPage schema={schema} />);
    await screen.findByText('alpha');
    fireEvent.change(screen.getByPlaceholderText('最小值'), { target: { value: '2' } });
    fireEvent.change(screen.getByPlaceholderText('最大值'), { target: { value: '9' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ sort_gte: 2, sort_lte: 9, current: 1 }));
    expect(listCalls().at(-1)).not.toHaveProperty('sort');
  }, 60_000);
});

/** A definition with a lifecycle: 停用 from 1, 启用 from 0 (with a confirmation). */
const thing = defineResource({
  code: 'thing',
  group: 'test',
  base: '/api/test/thing',
  label: { zh: '物件', en: 'Things' },
  scope: 'tenant',
  fields: {
    name: { kind: 'text', label: { zh: '名称', en: 'Name' }, required: true },
    status: {
      kind: 'dict',
      dict: 'thing_status',
      keys: 'int',
      options: [
        { value: 1, label: { zh: '启用', en: 'On' } },
        { value: 0, label: { zh: '停用', en: 'Off' } },
      ],
      label: { zh: '状态', en: 'Status' },
    },
  },
  actions: {
    stop: {
      label: { zh: '停用它', en: 'Stop it' },
      from: [1],
      to: 0,
      confirm: { zh: '确定停用?', en: 'Stop?' },
      done: { zh: '已停用', en: 'Stopped' },
    },
    start: { label: { zh: '启用它', en: 'Start it' }, from: [0], to: 1, done: { zh: '已启用', en: 'Started' } },
    retire: {
      label: { zh: '报废', en: 'Retire' },
      from: [0],
      to: 9,
      input: { reason: { kind: 'text', label: { zh: '报废原因', en: 'Reason' }, required: true, max: 20 } },
      done: { zh: '已报废', en: 'Retired' },
    },
  },
});

const THINGS = {
  records: [
    { id: '1', name: 'on-thing', status: 1, version: 4 },
    { id: '2', name: 'off-thing', status: 0, version: 5 },
  ],
  total: 2,
  size: 10,
  current: 1,
  pages: 1,
};

describe('lifecycle actions', () => {
  it('show only in their from states (and with their code); confirm, post { id, version }, say done', async () => {
    mockGet.mockImplementation(async (url: string) => {
      if (url.endsWith('/list')) return THINGS;
      if (url.endsWith('/dictionary')) return [];
      throw new Error(`unexpected ${url}`);
    });
    mockPost.mockResolvedValue(true);
    // thing_start is not held: 启用它 never shows.
    renderScreen(<ResourcePage def={thing} />);
    await screen.findByText('on-thing');
    const on = rowOf('on-thing');
    const off = rowOf('off-thing');
    expect(within(on).getByRole('button', { name: '停用它' })).toBeTruthy();
    expect(within(off).queryByRole('button', { name: '停用它' })).toBeNull();
    expect(screen.queryByRole('button', { name: '启用它' })).toBeNull();
    // The state column reads the definition's labels (the dictionary is empty).
    expect(within(on).getByText('启用')).toBeTruthy();

    const lists = listCalls().length;
    fireEvent.click(within(on).getByRole('button', { name: '停用它' }));
    const confirm = await waitFor(() => {
      const el = document.querySelector('.ant-modal-confirm');
      expect(el).toBeTruthy();
      return el as HTMLElement;
    });
    expect(confirm.querySelector('.ant-modal-confirm-title')?.textContent).toBe('确定停用?');
    fireEvent.click(within(confirm).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(mockPost).toHaveBeenCalledWith('/api/test/thing/stop', { id: '1', version: 4 }));
    await screen.findByText('已停用');
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(lists));
  }, 60_000);

  it('an action with input asks for it first (with the server’s required text) and sends it', async () => {
    mockGet.mockImplementation(async (url: string) => (url.endsWith('/list') ? THINGS : []));
    mockPost.mockResolvedValue(true);
    renderScreen(<ResourcePage def={thing} />);
    await screen.findByText('off-thing');
    expect(within(rowOf('on-thing')).queryByRole('button', { name: '报废' })).toBeNull();
    fireEvent.click(within(rowOf('off-thing')).getByRole('button', { name: '报废' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s*交/ }));
    await within(dialog).findByText('请输入报废原因');
    fireEvent.change(within(dialog).getByLabelText('报废原因'), { target: { value: 'worn out' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /提\s*交/ }));
    await waitFor(() =>
      expect(mockPost).toHaveBeenCalledWith('/api/test/thing/retire', { id: '2', version: 5, reason: 'worn out' }),
    );
    await screen.findByText('已报废');
  }, 60_000);
});
