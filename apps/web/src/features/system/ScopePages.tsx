import CrudPage from '../../components/crud/CrudPage';
import type { CrudField, CrudSchema } from '../../components/crud/types';

const menuField: CrudField = {
  name: 'menuId',
  label: 'scope.menuId',
  type: 'tree',
  treeUrl: '/api/blade-system/menu/tree',
  required: true,
  requiredMessage: 'scope.menuRequired',
};
const custom = (v: Record<string, unknown>) => Number(v.scopeType) === 5;

const dataScope: CrudSchema = {
  base: '/api/blade-system/data-scope',
  title: 'scope.dataTitle',
  codes: { add: 'datascope_add', edit: 'datascope_edit', delete: 'datascope_delete', view: 'datascope_view' },
  fields: [
    menuField,
    { name: 'resourceCode', label: 'scope.resourceCode', required: true, search: true },
    { name: 'scopeName', label: 'scope.scopeName', required: true, search: true },
    {
      name: 'scopeType',
      label: 'scope.scopeType',
      type: 'select',
      dict: 'data_scope_type',
      required: true,
      default: 1,
      options: [1, 2, 3, 4, 5].map((value) => ({ value, label: `scope.type${value}` })),
    },
    { name: 'scopeColumn', label: 'scope.scopeColumn', required: true, visible: custom },
    {
      name: 'scopeValue',
      label: 'scope.scopeValue',
      required: true,
      visible: custom,
      placeholder: 'scope.valueHint',
      column: false,
    },
    { name: 'remark', label: 'scope.remark', type: 'textarea', column: false },
  ],
};

const apiScope: CrudSchema = {
  base: '/api/blade-system/api-scope',
  title: 'scope.apiTitle',
  codes: { add: 'apiscope_add', edit: 'apiscope_edit', delete: 'apiscope_delete', view: 'apiscope_view' },
  fields: [
    menuField,
    { name: 'resourceCode', label: 'scope.resourceCode', required: true, search: true },
    { name: 'scopeName', label: 'scope.scopeName', required: true, search: true },
    { name: 'scopePath', label: 'scope.scopePath', required: true, placeholder: 'scope.pathHint' },
    {
      name: 'scopeMethod',
      label: 'scope.scopeMethod',
      type: 'select',
      default: '*',
      options: [
        { value: '*', label: 'scope.anyMethod' },
        { value: 'GET', label: 'GET' },
        { value: 'POST', label: 'POST' },
      ],
    },
    { name: 'remark', label: 'scope.remark', type: 'textarea', column: false },
  ],
};

/** 数据权限: which rows of a resource a role sees; type 5 takes a column and its values. */
export function DataScopePage() {
  return <CrudPage schema={dataScope} />;
}

/** 接口权限: which API paths of a menu a role may call. */
export function ApiScopePage() {
  return <CrudPage schema={apiScope} />;
}
