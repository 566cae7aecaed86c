import { beforeEach, describe, expect, it, vi } from 'vitest';
import { system } from '@atrium/contract';
import { get } from './http';
import { crudApi } from './crud';

vi.mock('./http', () => ({ get: vi.fn(), post: vi.fn(), http: {} }));
const mockGet = vi.mocked(get);

/** A CRUD screen's list call: a path under the base, or a route declared in the contract (docs/api.md). */
describe('crudApi', () => {
  beforeEach(() => {
    mockGet.mockReset();
    mockGet.mockResolvedValue({ records: [], total: 0, size: 10, current: 1, pages: 0 });
  });

  it('lists by a path under the base by default', async () => {
    await crudApi('/api/blade-system/post').list({ current: 1 });
    expect(mockGet.mock.calls[0].slice(0, 2)).toEqual(['/api/blade-system/post/list', { current: 1 }]);
  });

  it('lists and reads rows through a declared route, at its declared path', async () => {
    const api = crudApi(system.dictParentList.path.replace('/parent-list', ''), system.dictParentList);
    await api.list({ current: 2, size: 20 });
    expect(mockGet.mock.calls[0].slice(0, 2)).toEqual(['/api/blade-system/dict/parent-list', { current: 2, size: 20 }]);
    await api.rows(system.bizDictChildList, { parentId: '7' });
    expect(mockGet.mock.calls[1].slice(0, 2)).toEqual(['/api/blade-system/dict-biz/child-list', { parentId: '7' }]);
  });
});
