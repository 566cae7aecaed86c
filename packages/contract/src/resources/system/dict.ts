import { defineResource, type FieldDef } from '../../resource/define.ts';

/**
 * The fields of both dictionaries. A dictionary is a parent (parentId 0, key '-1', set by the server) and its entries
 * below it, which take their code from the parent; an entry stays under its parent.
 */
export const dictFields = (ref: string, base: string) =>
  ({
    parentId: {
      kind: 'ref',
      ref,
      root: '0',
      options: { url: `${base}/tree`, tree: true },
      createOnly: true,
      label: { zh: '上级字典', en: 'Parent' },
      default: '0',
      search: 'eq',
      sample: '0',
      ui: { column: false },
    },
    code: {
      kind: 'text',
      label: { zh: '字典编号', en: 'Code' },
      required: { zh: '请输入字典编号', en: 'Enter the dictionary code' },
      search: 'like',
      sort: true,
    },
    dictKey: {
      kind: 'text',
      label: { zh: '字典键值', en: 'Key' },
      unique: { zh: '字典键值已存在', en: 'The dictionary key already exists' },
      search: 'eq',
      // The key a parent always gets: the generated tests add a parent.
      sample: '-1',
    },
    dictValue: {
      kind: 'text',
      label: { zh: '字典名称', en: 'Name' },
      required: { zh: '请输入字典名称', en: 'Enter the dictionary name' },
      search: 'like',
    },
    dictValueEn: { kind: 'text', label: { zh: '英文名称', en: 'English name' } },
    sort: {
      kind: 'int',
      min: 0,
      max: 999999,
      label: { zh: '字典排序', en: 'Sort' },
      required: { zh: '请输入字典排序', en: 'Enter the sort order' },
      default: 0,
      sort: true,
      ui: { width: 80 },
    },
    isSealed: {
      kind: 'switch',
      label: { zh: '封存', en: 'Sealed' },
      required: { zh: '请选择字典封存', en: 'Select whether it is sealed' },
      default: 0,
      // A sealed entry is the platform administrator's alone: the generated tests edit as a tenant too.
      sample: 0,
      ui: { width: 90 },
    },
    remark: { kind: 'textarea', max: 255, label: { zh: '字典备注', en: 'Remark' } },
  }) as const satisfies Record<string, FieldDef>;

/** The tree rules' texts of both dictionaries (an entry never moves, so no cycle can be asked for). */
export const dictTreeMessages = {
  parentMissing: { zh: '上级字典不存在', en: 'The parent dictionary does not exist' },
  hasChildren: { zh: '请先删除子字典', en: 'Remove its child entries first' },
};

/**
 * 系统字典: one set for every tenant, managed by the platform administrator alone; tenants read the entries
 * through `dictionary?code=`.
 */
export const dict = defineResource({
  code: 'dict',
  group: 'system',
  base: '/api/blade-system/dict',
  label: { zh: '系统字典', en: 'System dictionaries' },
  scope: 'platform',
  defaultSort: 'sort',
  dialogWidth: 880,
  tree: { parent: 'parentId', title: 'dictValue', sort: 'sort', messages: dictTreeMessages },
  fields: dictFields('dict', '/api/blade-system/dict'),
});
