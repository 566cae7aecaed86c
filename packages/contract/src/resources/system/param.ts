import { commonFields } from '../common.ts';
import { defineResource } from '../../resource/define.ts';

/** 参数管理: platform-wide settings (password policy, tenant defaults), the platform administrator's alone. */
export const param = defineResource({
  code: 'param',
  group: 'system',
  base: '/api/blade-system/param',
  label: { zh: '参数管理', en: 'Parameters' },
  scope: 'platform',
  fields: {
    paramName: {
      kind: 'text',
      label: { zh: '参数名称', en: 'Name' },
      required: { zh: '请输入参数名称', en: 'Enter the parameter name' },
      search: 'like',
    },
    paramKey: {
      kind: 'text',
      label: { zh: '参数键名', en: 'Key' },
      required: { zh: '请输入参数键名', en: 'Enter the parameter key' },
      unique: { zh: '参数键名已存在', en: 'The parameter key already exists' },
      search: 'like',
      sort: true,
    },
    paramValue: {
      kind: 'textarea',
      max: 10000,
      label: { zh: '参数键值', en: 'Value' },
      required: { zh: '请输入参数键值', en: 'Enter the parameter value' },
      search: 'like',
      ui: { column: true },
    },
    remark: commonFields.remark(),
  },
});
