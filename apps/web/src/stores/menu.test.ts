import { describe, expect, it } from 'vitest';
import type { MenuNode } from '@atrium/contract';
import { namesOf } from './menu';

const node = (id: string, name: string, alias: string, children: MenuNode[] = []) =>
  ({ id, name, alias, children }) as MenuNode;

describe('menu names', () => {
  it('collects the name and alias of every menu and button of the routes and buttons trees', () => {
    const routes = [node('1', '系统管理', 'System', [node('2', '用户管理', 'Users')])];
    const buttons = [node('2', '用户管理', 'Users', [node('3', '新增', 'Add')])];
    expect(namesOf(routes, buttons)).toEqual({
      '1': { name: '系统管理', alias: 'System' },
      '2': { name: '用户管理', alias: 'Users' },
      '3': { name: '新增', alias: 'Add' },
    });
  });
});
