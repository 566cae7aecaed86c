import { defineResource } from '../../resource/define.ts';

/** 角色管理: a tenant's roles, a tree; `grant` replaces what roles may do (menus, data scopes, API scopes). */
export const role = defineResource({
  code: 'role',
  group: 'system',
  base: '/api/blade-system/role',
  label: { zh: '角色管理', en: 'Roles' },
  scope: 'tenant',
  defaultSort: 'sort',
  tree: {
    parent: 'parentId',
    title: 'roleName',
    sort: 'sort',
    // The role screen's own tree routes (with aliases) serve the pickers.
    routes: [],
    messages: {
      parentMissing: { zh: '上级角色不存在', en: 'The parent role does not exist' },
      cycle: { zh: '上级角色不能是自己或自己的下级', en: 'A role cannot move below itself' },
      hasChildren: { zh: '请先删除下级角色', en: 'Remove its child roles first' },
    },
  },
  fields: {
    parentId: {
      kind: 'ref',
      ref: 'role',
      root: '0',
      options: { url: '/api/blade-system/role/tree', tree: true },
      label: { zh: '上级角色', en: 'Parent role' },
      sample: '0',
    },
    roleName: {
      kind: 'text',
      label: { zh: '角色名称', en: 'Role name' },
      required: { zh: '请输入角色名称', en: 'Enter the role name' },
      search: 'like',
      sort: true,
    },
    roleAlias: {
      kind: 'text',
      label: { zh: '角色别名', en: 'Role alias' },
      required: { zh: '请输入角色别名', en: 'Enter the role alias' },
      pattern: {
        regex: '^[A-Za-z0-9_]+$',
        message: { zh: '角色别名只能包含字母、数字和 _', en: 'Letters, digits and _ only' },
      },
      unique: { zh: '角色别名已存在', en: 'The role alias already exists' },
      search: 'like',
    },
    sort: { kind: 'int', label: { zh: '角色排序', en: 'Sort' }, min: 0, max: 999999, sort: true, default: 0 },
  },
  actions: {
    grant: {
      label: { zh: '权限设置', en: 'Grant' },
      target: 'many',
      idField: 'roleIds',
      input: {
        menuIds: {
          kind: 'ref',
          ref: 'menu',
          multiple: true,
          options: { url: '/api/blade-system/menu/grant-tree', tree: true },
          label: { zh: '菜单权限', en: 'Menus' },
        },
        dataScopeIds: {
          kind: 'ref',
          ref: 'datascope',
          multiple: true,
          options: { url: '/api/blade-system/menu/grant-tree', tree: true },
          label: { zh: '数据权限', en: 'Data scopes' },
        },
        apiScopeIds: {
          kind: 'ref',
          ref: 'apiscope',
          multiple: true,
          options: { url: '/api/blade-system/menu/grant-tree', tree: true },
          label: { zh: '接口权限', en: 'API scopes' },
        },
      },
      done: { zh: '授权成功', en: 'Granted' },
    },
  },
});
