import CrudPage from '../../components/crud/CrudPage';
import type { CrudSchema } from '../../components/crud/types';

const schema: CrudSchema = {
  base: '/api/blade-system/post',
  title: 'post.title',
  codes: { add: 'post_add', edit: 'post_edit', delete: 'post_delete', view: 'post_view' },
  fields: [
    {
      name: 'category',
      label: 'post.category',
      type: 'select',
      dict: 'post_category',
      required: true,
      requiredMessage: 'post.categoryRequired',
      search: true,
    },
    { name: 'postCode', label: 'post.postCode', required: true, requiredMessage: 'post.codeRequired', search: true },
    { name: 'postName', label: 'post.postName', required: true, requiredMessage: 'post.nameRequired', search: true },
    { name: 'sort', label: 'post.sort', type: 'number', width: 80 },
    { name: 'remark', label: 'post.remark', type: 'textarea', column: false },
  ],
};

/** 岗位管理 on the one CRUD page; categories from the post_category dictionary. */
export default function PostPage() {
  return <CrudPage schema={schema} />;
}
