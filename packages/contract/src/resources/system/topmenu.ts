import { commonFields } from '../common.ts';
import { defineResource } from '../../resource/define.ts';

/** 顶部菜单: a tenant's top menus; the menus under each are set by the module's `grant` (code topmenu_setting). */
export const topmenu = defineResource({
  code: 'topmenu',
  group: 'system',
  base: '/api/blade-system/topmenu',
  label: { zh: '顶部菜单', en: 'Top menus' },
  scope: 'tenant',
  defaultSort: 'sort',
  fields: {
    name: {
      kind: 'text',
      label: { zh: '菜单名称', en: 'Name' },
      required: { zh: '请输入顶部菜单名称', en: 'Enter the top menu name' },
      search: 'like',
    },
    code: {
      kind: 'text',
      label: { zh: '菜单编号', en: 'Code' },
      required: { zh: '请输入顶部菜单编号', en: 'Enter the top menu code' },
      pattern: {
        regex: '^[A-Za-z0-9_-]+$',
        message: { zh: '编号只能包含字母、数字、_ 和 -', en: 'Letters, digits, _ and - only' },
      },
      unique: { zh: '顶部菜单编号已存在', en: 'The top menu code already exists' },
      search: 'like',
      sort: true,
    },
    source: { kind: 'text', label: { zh: '菜单图标', en: 'Icon' }, ui: { widget: 'icon' } },
    sort: commonFields.sort(),
  },
});
