import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { get } from '../../api/http';
import { forgetRegionLevels } from '../../api/region';
import { RegionCascader } from './RegionCascader';
import { fieldType } from './fieldTypes';

vi.mock('../../api/http', () => ({ get: vi.fn(), post: vi.fn(), http: {} }));
const mockGet = vi.mocked(get);

const node = (code: string, parent: string, title: string, hasChildren: boolean) => ({
  id: code,
  parentId: parent,
  title,
  key: code,
  value: code,
  level: 0,
  hasChildren,
  children: [],
});
const TREE: Record<string, ReturnType<typeof node>[]> = {
  '00': [node('11', '00', '北京市', true), node('33', '00', '浙江省', true)],
  '33': [node('3301', '33', '杭州市', true), node('3302', '33', '宁波市', true)],
  '3301': [node('330106', '3301', '西湖区', false), node('330108', '3301', '滨江区', false)],
};
const asked = () => mockGet.mock.calls.map(([, p]) => (p as { parentCode: string }).parentCode);

beforeEach(() => {
  forgetRegionLevels();
  mockGet.mockReset();
  mockGet.mockImplementation(async (url: string, params?: object) => {
    if (!url.endsWith('/region/lazy-tree')) throw new Error(`unexpected ${url}`);
    return TREE[(params as { parentCode: string }).parentCode] ?? [];
  });
});
afterEach(async () => {
  cleanup();
  await act(() => new Promise((r) => setTimeout(r, 20)));
});

describe('the region field kind', () => {
  it('is a lazy cascader in the field-type registry', () => {
    expect(fieldType({ name: 'regionCode', label: 'x', kind: 'region' }).input).toBe(RegionCascader);
  });

  it('opens a stored code on its path, loading the levels along it', async () => {
    render(<RegionCascader f={{ name: 'regionCode', label: 'x', kind: 'region' }} value="330106" />);
    await screen.findByText('浙江省 / 杭州市 / 西湖区');
    expect(asked().sort()).toEqual(['00', '33', '3301']);
  }, 60_000);

  it('loads one level per step and answers the code picked, at any level', async () => {
    const onChange = vi.fn();
    const { container } = render(
      <RegionCascader f={{ name: 'regionCode', label: 'x', kind: 'region' }} onChange={onChange} />,
    );
    await waitFor(() => expect(asked()).toEqual(['00']));
    fireEvent.mouseDown(container.querySelector('.ant-select')!);
    fireEvent.click(await screen.findByText('浙江省'));
    // Picking a province answers its code (any level may be chosen) and loads its cities.
    expect(onChange).toHaveBeenLastCalledWith('33');
    fireEvent.click(await screen.findByText('杭州市'));
    expect(onChange).toHaveBeenLastCalledWith('3301');
    await screen.findByText('滨江区');
    expect(asked()).toEqual(['00', '33', '3301']);
  }, 60_000);
});
