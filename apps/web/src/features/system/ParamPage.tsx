import CrudPage from '../../components/crud/CrudPage';
import type { CrudSchema } from '../../components/crud/types';

/** 参数管理 (docs/product.md "Records" system parameter, "Validation" messages; validated on blur). */
const schema: CrudSchema = {
  base: '/api/blade-system/param',
  title: 'param.title',
  codes: { add: 'param_add', edit: 'param_edit', delete: 'param_delete', view: 'param_view' },
  fields: [
    {
      name: 'paramName',
      label: 'param.paramName',
      required: true,
      requiredMessage: 'param.nameRequired',
      search: true,
    },
    { name: 'paramKey', label: 'param.paramKey', required: true, requiredMessage: 'param.keyRequired', search: true },
    {
      name: 'paramValue',
      label: 'param.paramValue',
      type: 'textarea',
      required: true,
      requiredMessage: 'param.valueRequired',
    },
    { name: 'remark', label: 'param.remark', type: 'textarea', column: false },
  ],
};

export default function ParamPage() {
  return <CrudPage schema={schema} />;
}
