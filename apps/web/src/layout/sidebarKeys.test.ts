import { describe, expect, it } from 'vitest';
import type { MenuItem } from '../stores/menuRoutes';
import { labelMenuTree, menuLabel, mergeOpen, openKeysFor } from './sidebarKeys';

const item = (id: string, path: string, children: MenuItem[] = []): MenuItem => ({
  id,
  code: id,
  name: `名${id}`,
  alias: `Alias ${id}`,
  path,
  source: path,
  icon: '',
  isOpen: 1,
  meta: { i18n: id, keepAlive: true },
  children,
});
const menus = [
  item('desk', '/desk/index', [item('notice', '/desk/notice/index')]),
  item('system', '/system/index', [
    item('user', '/system/user/index'),
    item('deep', '/system/deep/index', [item('leaf', '/system/deep/leaf/index')]),
  ]),
  item('solo', '/solo/index'),
];

describe('sidebar', () => {
  it('opens the submenus leading to the current page, outermost first', () => {
    expect(openKeysFor(menus, '/system/user/index')).toEqual(['sub:system']);
    expect(openKeysFor(menus, '/system/deep/leaf/index')).toEqual(['sub:system', 'sub:deep']);
    expect(openKeysFor(menus, '/solo/index')).toEqual([]);
    expect(openKeysFor(menus, '/info/index')).toEqual([]);
    expect(openKeysFor([], '/system/user/index')).toEqual([]);
  });

  it('keeps what the user opened and adds what the current page needs', () => {
    const open = ['sub:desk'];
    expect(mergeOpen(open, ['sub:system'])).toEqual(['sub:desk', 'sub:system']);
    expect(mergeOpen(open, ['sub:desk'])).toBe(open);
  });

  it('labels menus with their alias in English and their name otherwise', () => {
    expect(menuLabel({ name: '用户管理', alias: 'Users' }, 'en')).toBe('Users');
    expect(menuLabel({ name: '用户管理', alias: '' }, 'en')).toBe('用户管理');
    expect(menuLabel({ name: '用户管理', alias: 'Users' }, 'zh')).toBe('用户管理');
  });

  it('labels the menu and button nodes of a grant tree like the sidebar, leaving other nodes alone', () => {
    const names = { m1: { name: '用户管理', alias: 'Users' }, b1: { name: '新增', alias: 'Add' } };
    const tree = [
      { id: 'm1', title: '用户管理', children: [{ id: 'b1', title: '新增' }] },
      { id: 's1', title: '用户管理 / 本人可见' },
    ];
    expect(labelMenuTree(tree, names, 'en')).toEqual([
      { id: 'm1', title: 'Users', children: [{ id: 'b1', title: 'Add' }] },
      { id: 's1', title: '用户管理 / 本人可见' },
    ]);
    expect(labelMenuTree(tree, names, 'zh')).toEqual(tree);
  });
});
