import { useTranslation } from 'react-i18next';
import CrudPage from '../../components/crud/CrudPage';
import type { CrudSchema } from '../../components/crud/types';

/** 岗位管理 on the one CRUD page. Categories follow the post_category dictionary of the seed. */
export default function PostPage() {
  const { i18n } = useTranslation();
  const en = i18n.language === 'en';
  const schema: CrudSchema = {
    base: '/api/blade-system/post',
    title: 'post.title',
    codes: { add: 'post_add', edit: 'post_edit', delete: 'post_delete', view: 'post_view' },
    fields: [
      { name: 'category', label: 'post.category', type: 'select', required: true, requiredMessage: 'post.categoryRequired', search: true,
        options: [[1, '高层', 'Senior'], [2, '中层', 'Middle'], [3, '基层', 'Junior'], [4, '其他', 'Other']].map(([value, zh, e]) => ({ value, label: String(en ? e : zh) })) },
      { name: 'postCode', label: 'post.postCode', required: true, requiredMessage: 'post.codeRequired', search: true },
      { name: 'postName', label: 'post.postName', required: true, requiredMessage: 'post.nameRequired', search: true },
      { name: 'sort', label: 'post.sort', type: 'number', width: 80 },
      { name: 'remark', label: 'post.remark', type: 'textarea', column: false },
    ],
  };
  return <CrudPage schema={schema} />;
}
