import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { param } from '../../db/schema/index.ts';
import { crudRoutes } from '../../platform/crud.ts';
import { optionalText, requiredText } from '../../platform/fields.ts';
import type { Services } from '../../platform/services.ts';

/** Spec §3 "System parameter" and the messages of §5. */
const body = z.object({
  paramName: requiredText('请输入参数名称', 'Enter the parameter name', 255),
  paramKey: requiredText('请输入参数键名', 'Enter the parameter key', 255),
  paramValue: requiredText('请输入参数键值', 'Enter the parameter value', 10000),
  remark: optionalText(255),
});

/** System parameters are platform-wide (password policy, tenant defaults): the platform administrator's alone. */
export function paramRoutes(app: FastifyInstance, s: Services) {
  crudRoutes(app, s, {
    entity: 'param',
    table: param,
    base: '/api/blade-system/param',
    global: true,
    platform: true,
    codes: { view: 'param', add: 'param_add', edit: 'param_edit', remove: 'param_delete' },
    body,
    list: {
      filters: {
        paramName: { column: param.paramName, op: 'like' },
        paramKey: { column: param.paramKey, op: 'like' },
        paramValue: { column: param.paramValue, op: 'like' },
      },
      sorts: { paramKey: param.paramKey, createTime: param.createTime },
      createTime: param.createTime,
    },
    unique: {
      param_key_uq: { field: 'paramKey', text: { zh: '参数键名已存在', en: 'The parameter key already exists' } },
    },
    afterWrite: () => s.cache.clearAll(),
  });
}
