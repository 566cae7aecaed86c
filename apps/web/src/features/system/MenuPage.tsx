import CrudPage from '../../components/crud/CrudPage';
import type { CrudSchema } from '../../components/crud/types';

/** 菜单管理: a lazy tree table (children load on expand); icons from the curated set the sidebar draws. */
const schema: CrudSchema = {
  base: '/api/blade-system/menu',
  title: 'menu.title',
  codes: { add: 'menu_add', edit: 'menu_edit', delete: 'menu_delete', view: 'menu_view' },
  tree: { lazy: true },
  fields: [
    { name: 'name', label: 'menu.name', required: true, search: true },
    { name: 'code', label: 'menu.code', required: true, search: true },
    { name: 'alias', label: 'menu.alias' },
    { name: 'path', label: 'menu.path' },
    {
      name: 'parentId',
      label: 'menu.parentId',
      type: 'tree',
      treeUrl: '/api/blade-system/menu/tree',
      root: '0',
      column: false,
    },
    { name: 'source', label: 'menu.source', type: 'icon' },
    {
      name: 'category',
      label: 'menu.category',
      type: 'select',
      dict: 'menu_category',
      required: true,
      default: 1,
      width: 90,
      options: [
        { value: 1, label: 'menu.categoryMenu' },
        { value: 2, label: 'menu.categoryButton' },
      ],
    },
    {
      name: 'action',
      label: 'menu.action',
      type: 'select',
      default: 0,
      column: false,
      options: [0, 1, 2, 3].map((value) => ({ value, label: `menu.action${value}` })),
    },
    {
      name: 'isOpen',
      label: 'menu.isOpen',
      type: 'select',
      default: 1,
      column: false,
      options: [
        { value: 1, label: 'menu.openInApp' },
        { value: 2, label: 'menu.openNewWindow' },
      ],
    },
    { name: 'sort', label: 'menu.sort', type: 'number', default: 0, width: 80 },
    { name: 'remark', label: 'menu.remark', type: 'textarea', column: false },
  ],
};

export default function MenuPage() {
  return <CrudPage schema={schema} />;
}
