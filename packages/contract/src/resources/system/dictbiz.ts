import { defineResource } from '../../resource/define.ts';
import { dictFields, dictTreeMessages } from './dict.ts';

/** 业务字典: each tenant's own dictionaries, the same shape as the system ones. */
export const dictbiz = defineResource({
  code: 'dictbiz',
  group: 'system',
  base: '/api/blade-system/dict-biz',
  label: { zh: '业务字典', en: 'Business dictionaries' },
  scope: 'tenant',
  defaultSort: 'sort',
  dialogWidth: 880,
  tree: { parent: 'parentId', title: 'dictValue', sort: 'sort', messages: dictTreeMessages },
  fields: dictFields('dictbiz', '/api/blade-system/dict-biz'),
});
