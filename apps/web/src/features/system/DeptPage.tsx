import CrudPage from '../../components/crud/CrudPage';
import type { CrudSchema } from '../../components/crud/types';

/** 机构管理: a lazy tree table of departments. */
const schema: CrudSchema = {
  base: '/api/blade-system/dept',
  title: 'dept.title',
  codes: { add: 'dept_add', edit: 'dept_edit', delete: 'dept_delete', view: 'dept_view' },
  tree: { lazy: true },
  fields: [
    { name: 'deptName', label: 'dept.deptName', required: true, search: true },
    { name: 'fullName', label: 'dept.fullName', search: true },
    {
      name: 'parentId',
      label: 'dept.parentId',
      type: 'tree',
      treeUrl: '/api/blade-system/dept/tree',
      root: '0',
      column: false,
    },
    {
      name: 'deptCategory',
      label: 'dept.deptCategory',
      type: 'select',
      dict: 'org_category',
      default: 1,
      options: [
        { value: 1, label: 'dept.company' },
        { value: 2, label: 'dept.department' },
        { value: 3, label: 'dept.group' },
      ],
    },
    { name: 'sort', label: 'dept.sort', type: 'number', default: 0, width: 80 },
    { name: 'remark', label: 'dept.remark', type: 'textarea', column: false },
  ],
};

export default function DeptPage() {
  return <CrudPage schema={schema} />;
}
