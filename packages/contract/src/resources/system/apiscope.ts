import { commonFields } from '../common.ts';
import { defineResource } from '../../resource/define.ts';
import { scopeFields } from './datascope.ts';

/** 接口权限: the API paths of a menu a role may call (`scopePath` may end with the `*` wildcard). */
export const apiscope = defineResource({
  code: 'apiscope',
  group: 'system',
  base: '/api/blade-system/api-scope',
  label: { zh: '接口权限', en: 'API scopes' },
  scope: 'tenant',
  defaultSort: 'id',
  fields: {
    ...scopeFields,
    scopePath: {
      kind: 'text',
      label: { zh: '接口地址', en: 'API path' },
      required: { zh: '请输入接口地址', en: 'Enter the API path' },
      pattern: {
        regex: '^/api/[A-Za-z0-9_\\-/.]*\\*?$',
        message: {
          zh: '接口地址须以 /api/ 开头，只能以 * 结尾通配',
          en: 'The path starts with /api/ and may end with *',
        },
      },
      search: 'like',
      sample: '/api/blade-system/post/list',
      ui: { placeholder: { zh: '/api/…，末尾可用 * 通配', en: '/api/…, may end with the * wildcard' } },
    },
    scopeMethod: {
      kind: 'dict',
      dict: 'api_scope_method',
      keys: 'string',
      values: ['*', 'GET', 'POST'],
      options: [
        { value: '*', label: { zh: '全部 (*)', en: 'Any (*)' } },
        { value: 'GET', label: { zh: 'GET', en: 'GET' } },
        { value: 'POST', label: { zh: 'POST', en: 'POST' } },
      ],
      label: { zh: '请求方法', en: 'Method' },
      default: '*',
    },
    remark: commonFields.remark(),
  },
});
