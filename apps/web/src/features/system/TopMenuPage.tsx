import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import CrudPage from '../../components/crud/CrudPage';
import type { CrudField, CrudSchema, Row } from '../../components/crud/types';
import { grantTopMenu, topGrantTree, topTreeKeys } from '../../api/system';
import GrantDialog from './GrantDialog';

const fields: CrudField[] = [
  { name: 'name', label: 'topmenu.name', required: true, search: true },
  { name: 'code', label: 'topmenu.code', required: true, search: true },
  { name: 'source', label: 'topmenu.source', type: 'icon' },
  { name: 'sort', label: 'topmenu.sort', type: 'number', default: 0, width: 80 },
];

/** 顶部菜单, with 菜单配置: the menus a top menu shows. */
export default function TopMenuPage() {
  const { t } = useTranslation();
  const [granting, setGranting] = useState<Row | null>(null);
  const schema = useMemo<CrudSchema>(
    () => ({
      base: '/api/blade-system/topmenu',
      title: 'topmenu.title',
      codes: { add: 'topmenu_add', edit: 'topmenu_edit', delete: 'topmenu_delete', view: 'topmenu_view' },
      fields,
      rowActions: [{ code: 'topmenu_setting', label: 'topmenu.setting', onClick: ([row]) => setGranting(row) }],
    }),
    [],
  );
  return (
    <>
      <CrudPage schema={schema} />
      {granting && (
        <GrantDialog
          title={`${t('topmenu.setting')} · ${String(granting.name ?? '')}`}
          queryKey={['topmenu', granting.id]}
          load={async () => {
            const [trees, keys] = await Promise.all([topGrantTree(), topTreeKeys(granting.id)]);
            return [
              { key: 'menu', label: t('role.menuTab'), tree: trees.menu ?? [], keys: keys.menu ?? [], strict: true },
            ];
          }}
          save={(ids) => grantTopMenu({ topMenuIds: [granting.id], menuIds: ids.menu ?? [] })}
          onClose={() => setGranting(null)}
        />
      )}
    </>
  );
}
