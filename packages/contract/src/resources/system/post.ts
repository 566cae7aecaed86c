import { commonFields } from '../common.ts';
import { defineResource } from '../../resource/define.ts';

/** 岗位管理: a tenant's posts; categories from the post_category dictionary. */
export const post = defineResource({
  code: 'post',
  group: 'system',
  base: '/api/blade-system/post',
  label: { zh: '岗位管理', en: 'Posts' },
  scope: 'tenant',
  defaultSort: 'sort',
  fields: {
    category: {
      kind: 'dict',
      dict: 'post_category',
      keys: 'int',
      label: { zh: '岗位类型', en: 'Category' },
      required: { zh: '请选择岗位类型', en: 'Select the post category' },
      search: 'eq',
      sample: 1,
    },
    postCode: {
      kind: 'text',
      label: { zh: '岗位编号', en: 'Post code' },
      required: { zh: '请输入岗位编号', en: 'Enter the post code' },
      unique: { zh: '岗位编号已存在', en: 'The post code already exists' },
      search: 'like',
      sort: true,
    },
    postName: {
      kind: 'text',
      label: { zh: '岗位名称', en: 'Post name' },
      required: { zh: '请输入岗位名称', en: 'Enter the post name' },
      search: 'like',
    },
    sort: commonFields.sort(99999),
    remark: commonFields.remark(),
  },
});
