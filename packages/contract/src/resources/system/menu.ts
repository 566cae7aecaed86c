import { defineResource } from '../../resource/define.ts';

/** 菜单管理: the platform's menu tree (menus and their buttons); codes double as permission codes and i18n keys. */
export const menu = defineResource({
  code: 'menu',
  group: 'system',
  base: '/api/blade-system/menu',
  label: { zh: '菜单管理', en: 'Menus' },
  scope: 'tenant',
  platformOnly: true,
  defaultSort: 'sort',
  tree: {
    parent: 'parentId',
    title: 'name',
    sort: 'sort',
    routes: ['lazy-list', 'lazy-tree'],
    messages: {
      parentMissing: { zh: '上级菜单不存在', en: 'The parent menu does not exist' },
      cycle: { zh: '上级菜单不能是自己或自己的下级', en: 'A menu cannot move below itself' },
      hasChildren: { zh: '请先删除子菜单', en: 'Remove its child menus first' },
    },
  },
  fields: {
    parentId: {
      kind: 'ref',
      ref: 'menu',
      root: '0',
      options: { url: '/api/blade-system/menu/tree', tree: true },
      label: { zh: '上级菜单', en: 'Parent menu' },
      sample: '0',
    },
    code: {
      kind: 'text',
      label: { zh: '菜单编号', en: 'Code' },
      required: { zh: '请输入菜单编号', en: 'Enter the menu code' },
      pattern: {
        regex: '^[A-Za-z0-9_:.-]+$',
        message: { zh: '菜单编号只能包含字母、数字和 _ : . -', en: 'Letters, digits and _ : . - only' },
      },
      unique: { zh: '菜单编号已存在', en: 'The menu code already exists' },
      search: 'like',
      sort: true,
    },
    name: {
      kind: 'text',
      label: { zh: '菜单名称', en: 'Name' },
      required: { zh: '请输入菜单名称', en: 'Enter the menu name' },
      search: 'like',
      // The alias is the menu's English name (the sidebar shows it in English).
      ui: { english: 'alias' },
    },
    alias: { kind: 'text', label: { zh: '菜单别名', en: 'Alias' }, search: 'like' },
    path: { kind: 'text', label: { zh: '路由地址', en: 'Path' } },
    source: { kind: 'text', label: { zh: '菜单图标', en: 'Icon' }, ui: { widget: 'icon' } },
    sort: { kind: 'int', min: 0, max: 999999, label: { zh: '菜单排序', en: 'Sort' }, sort: true, default: 0 },
    category: {
      kind: 'dict',
      dict: 'menu_category',
      keys: 'int',
      values: [1, 2],
      label: { zh: '菜单类型', en: 'Type' },
      search: 'eq',
      default: 1,
    },
    action: {
      kind: 'dict',
      dict: 'button_func',
      keys: 'int',
      values: [0, 1, 2, 3],
      label: { zh: '按钮功能', en: 'Button action' },
      default: 0,
    },
    isOpen: {
      kind: 'dict',
      dict: 'yes_no',
      keys: 'int',
      values: [1, 2],
      label: { zh: '新窗口', en: 'New window' },
      default: 1,
    },
    remark: { kind: 'textarea', label: { zh: '菜单备注', en: 'Remark' } },
  },
});
