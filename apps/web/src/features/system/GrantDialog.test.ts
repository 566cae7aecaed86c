import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../components/crud/types';
import { initialChecked, withAncestors } from './GrantDialog';

const n = (id: string, children: TreeNode[] = []): TreeNode => ({ id, key: id, value: id, title: id, children });
// system ─ user ─ user_add, user_edit ; system ─ post ; desk ─ notice
const tree = [n('system', [n('user', [n('user_add'), n('user_edit')]), n('post')]), n('desk', [n('notice')])];

describe('grant trees', () => {
  it('pre-checks what the grant lists, leaving listed parents to show half-checked from their children', () => {
    expect(initialChecked(tree, ['system', 'user', 'user_add']).sort()).toEqual(['user_add']);
    // A parent listed without any of its descendants is checked whole.
    expect(initialChecked(tree, ['desk']).sort()).toEqual(['desk']);
    expect(initialChecked(tree, ['system', 'post', 'desk', 'notice']).sort()).toEqual(['notice', 'post']);
  });

  it('saves the checked nodes with every ancestor (the half-checked parents)', () => {
    expect(withAncestors(tree, ['user_add']).sort()).toEqual(['system', 'user', 'user_add']);
    expect(withAncestors(tree, ['post', 'notice']).sort()).toEqual(['desk', 'notice', 'post', 'system']);
    expect(withAncestors(tree, [])).toEqual([]);
  });
});
