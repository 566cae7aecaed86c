import { describe, expect, it } from 'vitest';
import type { MenuNode } from '@atrium/contract';
import { buttonCodes, filterByRoles, flatten, routePath, searchMenus, toMenuItems } from './menuRoutes';

const node = (p: Partial<MenuNode>): MenuNode => ({
  id: '1',
  parentId: '0',
  code: 'x',
  name: 'X',
  alias: 'X',
  path: '',
  source: '',
  sort: 1,
  category: 1,
  action: 0,
  isOpen: 1,
  remark: '',
  hasChildren: false,
  children: [],
  ...p,
});

const tree = [
  node({
    id: '1',
    code: 'system',
    name: '系统管理',
    alias: 'System',
    path: '/system',
    children: [
      node({
        id: '2',
        code: 'user',
        name: '用户管理',
        alias: 'Users',
        path: '/system/user',
        children: [node({ id: '3', code: 'user_add', name: '新增', category: 2 })],
      }),
      node({ id: '4', code: 'dept', name: '机构管理', alias: 'Departments', path: 'system/dept/' }),
    ],
  }),
  node({ id: '5', code: 'docs', name: '文档', alias: 'Docs', path: 'https://example.com/docs' }),
];

describe('menu → route mapping', () => {
  it('appends /index to a parent and to a leaf, once', () => {
    expect(routePath({ path: '/system', code: 'system' })).toBe('/system/index');
    expect(routePath({ path: '/system/user', code: 'user' })).toBe('/system/user/index');
    expect(routePath({ path: 'system/dept/', code: 'dept' })).toBe('/system/dept/index');
    expect(routePath({ path: '/dict-horizontal/index', code: 'dict' })).toBe('/dict-horizontal/index');
  });
  it('routes an external URL through /myiframe', () => {
    expect(routePath({ path: 'https://example.com/docs', code: 'docs' })).toBe('/myiframe/docs');
  });
  it('keeps menus and drops buttons', () => {
    const items = toMenuItems(tree);
    expect(flatten(items).map((i) => i.code)).toEqual(['system', 'user', 'dept', 'docs']);
    expect(items[0].children[0].path).toBe('/system/user/index');
  });
  it('filters by meta roles', () => {
    const items = toMenuItems(tree);
    items[1].meta.roles = ['administrator'];
    expect(filterByRoles(items, ['city_admin']).map((i) => i.code)).toEqual(['system']);
    expect(filterByRoles(items, ['administrator']).map((i) => i.code)).toEqual(['system', 'docs']);
  });
  it('collects button codes', () => {
    expect(buttonCodes(tree)).toEqual(['user_add']);
  });
});

describe('menu search', () => {
  const items = toMenuItems(tree);
  it('matches a name prefix, case-insensitively, in either language', () => {
    expect(searchMenus(items, '用户').map((i) => i.code)).toEqual(['user']);
    expect(searchMenus(items, 'dep').map((i) => i.code)).toEqual(['dept']);
    expect(searchMenus(items, 'USERS').map((i) => i.code)).toEqual(['user']);
  });
  it('does not match in the middle of a name, nor on empty text', () => {
    expect(searchMenus(items, '管理')).toEqual([]);
    expect(searchMenus(items, '  ')).toEqual([]);
  });
});
