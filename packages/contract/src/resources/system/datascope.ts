import { commonFields } from '../common.ts';
import { defineResource, type FieldDef } from '../../resource/define.ts';

/** The fields data scopes and API scopes share: the menu they belong to, the resource, the name. */
export const scopeFields = {
  menuId: {
    kind: 'ref',
    ref: 'menu',
    options: { url: '/api/blade-system/menu/tree', tree: true },
    label: { zh: '所属菜单', en: 'Menu' },
    required: { zh: '请选择所属菜单', en: 'Select the menu' },
    search: 'eq',
  },
  resourceCode: {
    kind: 'text',
    label: { zh: '资源编号', en: 'Resource code' },
    required: { zh: '请输入资源编号', en: 'Enter the resource code' },
    pattern: {
      regex: '^[A-Za-z0-9_]+$',
      message: { zh: '资源编号只能包含字母、数字和 _', en: 'Letters, digits and _ only' },
    },
    search: 'eq',
    sample: 'user',
  },
  scopeName: {
    kind: 'text',
    label: { zh: '权限名称', en: 'Scope name' },
    required: { zh: '请输入权限名称', en: 'Enter the scope name' },
    search: 'like',
    sort: true,
  },
} as const satisfies Record<string, FieldDef>;

const custom = { field: 'scopeType', in: [5] };

/**
 * 数据权限: which rows of a resource (one bound with a data scope, e.g. `user`) a role sees. Types: 1 all, 2 own
 * records, 3 own department, 4 own department and below, 5 custom (a filter column of the resource and its values),
 * 6 own region and below (rows whose region code starts with the user's), 7 own client (a client account's).
 */
export const datascope = defineResource({
  code: 'datascope',
  group: 'system',
  base: '/api/blade-system/data-scope',
  label: { zh: '数据权限', en: 'Data scopes' },
  scope: 'tenant',
  defaultSort: 'id',
  fields: {
    ...scopeFields,
    scopeType: {
      kind: 'dict',
      dict: 'data_scope_type',
      keys: 'int',
      values: [1, 2, 3, 4, 5, 6, 7],
      options: [
        { value: 1, label: { zh: '全部', en: 'All' } },
        { value: 2, label: { zh: '本人', en: 'Own records' } },
        { value: 3, label: { zh: '本部门', en: 'Own department' } },
        { value: 4, label: { zh: '本部门及以下', en: 'Own department and below' } },
        { value: 5, label: { zh: '自定义', en: 'Custom' } },
        { value: 6, label: { zh: '本区域及以下', en: 'Own region and below' } },
        { value: 7, label: { zh: '本客户', en: 'Own client' } },
      ],
      label: { zh: '权限类型', en: 'Scope type' },
      required: { zh: '请选择权限类型', en: 'Select the scope type' },
      invalid: { zh: '请选择权限类型', en: 'Select the scope type' },
      default: 1,
      search: 'eq',
      // Custom, so that the column and values below are kept (other types clear them).
      sample: 5,
    },
    scopeColumn: {
      kind: 'text',
      label: { zh: '权限字段', en: 'Column' },
      sample: 'account',
      ui: { showWhen: custom },
    },
    scopeValue: {
      kind: 'text',
      label: { zh: '权限值', en: 'Values' },
      sample: 'admin',
      ui: { column: false, showWhen: custom, placeholder: { zh: '多个值用逗号分隔', en: 'Comma-separated values' } },
    },
    remark: commonFields.remark(),
  },
});
