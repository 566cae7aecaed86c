import { commonFields } from '../common.ts';
import { defineResource } from '../../resource/define.ts';

/**
 * 机构管理: a tenant's departments, a tree. Each keeps its `ancestors` ("0,1,5", written by the server), which the
 * data scope "own department and below" reads; the user screen's department picker reads the tree.
 */
export const dept = defineResource({
  code: 'dept',
  group: 'system',
  base: '/api/blade-system/dept',
  label: { zh: '机构管理', en: 'Departments' },
  scope: 'tenant',
  dataScope: true,
  defaultSort: 'sort',
  tree: {
    parent: 'parentId',
    title: 'deptName',
    sort: 'sort',
    readAlso: ['user'],
    messages: {
      parentMissing: { zh: '上级机构不存在', en: 'The parent department does not exist' },
      cycle: { zh: '上级机构不能是自己或自己的下级', en: 'A department cannot move below itself' },
      hasChildren: { zh: '请先删除下级机构', en: 'Remove its sub-departments first' },
    },
  },
  fields: {
    parentId: {
      kind: 'ref',
      ref: 'dept',
      root: '0',
      options: { url: '/api/blade-system/dept/tree', tree: true },
      label: { zh: '上级机构', en: 'Parent department' },
      default: '0',
      search: 'eq',
      sample: '0',
      ui: { column: false },
    },
    deptName: {
      kind: 'text',
      max: 45,
      label: { zh: '机构名称', en: 'Department name' },
      required: { zh: '请输入机构名称', en: 'Enter the department name' },
      search: 'like',
      sort: true,
    },
    fullName: { kind: 'text', max: 45, label: { zh: '机构全称', en: 'Full name' }, search: 'like' },
    deptCategory: {
      kind: 'dict',
      dict: 'org_category',
      keys: 'int',
      // The range the server has always taken; the dictionary labels the known ones.
      values: Array.from({ length: 99 }, (_, i) => i + 1),
      label: { zh: '机构类型', en: 'Category' },
      default: 1,
      search: 'eq',
    },
    sort: commonFields.sort(),
    remark: { kind: 'textarea', max: 255, label: { zh: '备注', en: 'Remark' } },
  },
});
